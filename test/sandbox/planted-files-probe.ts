// One scenario of planted-files.test.ts, run in a process of its own (bundled by the test, started
// as root or as an ordinary user with passwordless sudo): a sandboxed call leaves something where
// the action reads or writes a file afterwards (a FIFO, a link to /dev/zero, a 2 GB sparse file, a
// link in place of a folder or a file), then the action does what it does after or before every
// call. Prints one JSON line: how long the action's step took, the process's peak memory, what the
// outside folder (writable by the action, never by the sandbox user) holds, and the log. A step
// that blocks never prints: the test's timeout shows it.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClaudeAdapter } from '../../src/agents/claude.js';
import type { CliAdapterOptions } from '../../src/agents/cli-common.js';
import { createCodexAdapter } from '../../src/agents/codex.js';
import { createGeminiAdapter } from '../../src/agents/gemini.js';
import { createOpencodeAdapter } from '../../src/agents/opencode.js';
import type { AgentAdapter, Invocation, Role } from '../../src/agents/types.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';

const log: string[] = [];
const top = mkdtempSync(path.join(process.env.PROBE_TOP!, 'planted-'));
chmodSync(top, 0o755);
const repo = path.join(top, 'repo');
const outside = path.join(top, 'outside');
const scratch = path.join(top, 'scratch');
const gitfile = 'gitdir: ../.git/modules/lib\n';
const TWO_GB = 2_000_000_000;

mkdirSync(path.join(repo, 'lib'), { recursive: true });
mkdirSync(outside, { mode: 0o755 });
mkdirSync(path.join(scratch, 'context'), { recursive: true, mode: 0o700 });
writeFileSync(path.join(outside, 'victim'), 'original\n');
writeFileSync(path.join(scratch, 'context', 'pr.json'), '{}\n');
execFileSync('git', ['init', '-q', repo]);
writeFileSync(path.join(repo, 'a.txt'), 'a\n');
writeFileSync(path.join(repo, 'lib', 'y.txt'), 'y\n');
execFileSync('git', ['-C', repo, 'add', 'a.txt', 'lib/y.txt']);
// A submodule's gitfile, as actions/checkout leaves it, in a folder the PR tracks files in.
writeFileSync(path.join(repo, 'lib', '.git'), gitfile);

const sandbox = await createSandbox('required', repo, { log: (l) => log.push(l), env: {} });
// For the test to remove, should this process be killed before it closes the sandbox.
console.error(`sandbox user: ${sandbox.user}`);
const env = { PATH: '/usr/local/bin:/usr/bin:/bin' };

/** A call that may write the checkout (the fixer, a verify command, a hook) runs `script`. */
const inTree = (script: string) =>
  sandbox.run({ command: '/bin/sh', args: ['-c', script], cwd: repo, env, timeoutMs: 10_000 }, { workTree: repo });

/** A hostile CLI: a script the adapter runs as its binary, in the sandbox, as the role's call. */
function fakeCli(name: string, script: string): string {
  const file = path.join(top, `${name}.sh`);
  writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return file;
}

function adapter(make: (o: CliAdapterOptions) => AgentAdapter, bin: string): AgentAdapter {
  const agentConfig = { env: { PLANTED_PROBE: '1' } };
  return make({ binPath: bin, baseEnv: env, sandbox, agentConfig, log: (l) => log.push(l) });
}

function invocation(role: Role): Invocation {
  const contextDir = path.join(scratch, 'context');
  const stateDir = path.join(scratch, `${role}-home`);
  return { role, name: role, model: 'm', prompt: 'p', cwd: repo, contextDir, stateDir, round: 1, timeoutMs: 10_000 };
}

/** Runs the adapter; its error (the fake CLI answers nothing useful) is part of the result. */
async function call(a: AgentAdapter, inv: Invocation): Promise<string> {
  return a.run(inv).then(
    () => 'answered',
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
}

/** The same adapter's next call of the role, after a first call planted something in its state folder. */
async function nextCall(make: (o: CliAdapterOptions) => AgentAdapter, plant: string): Promise<() => Promise<string>> {
  const inv = invocation('fixer');
  await call(adapter(make, fakeCli('plant', plant)), inv);
  return () => call(adapter(make, fakeCli('quiet', 'exit 0')), inv);
}

// Each scenario plants, then returns the action's step that the test times.
const ROLLOUT = 'sessions/2025/01/01/rollout-2025-01-01T00-00-00-t-1.jsonl';
const CODEX_EVENTS =
  `echo '{"type":"thread.started","thread_id":"t-1"}'; ` +
  `echo '{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}'`;
const codexRollout = (plant: string) => async () => {
  const inv = invocation('reviewer');
  const cli = fakeCli(
    'codex',
    `mkdir -p "$CODEX_HOME/${path.dirname(ROLLOUT)}"; ${plant} "$CODEX_HOME/${ROLLOUT}"; ${CODEX_EVENTS}`,
  );
  return () => call(adapter(createCodexAdapter, cli), inv);
};

const SCENARIOS: Record<string, () => Promise<() => Promise<unknown>>> = {
  // After every call that may write the checkout, each nested .git is read and put back.
  'git-fifo': async () => () => inTree('rm lib/.git && mkfifo lib/.git'),
  'git-devzero': async () => () => inTree('rm lib/.git && ln -s /dev/zero lib/.git'),
  'git-sparse': async () => () => inTree(`rm lib/.git && truncate -s ${TWO_GB} lib/.git`),
  'git-parent-link': async () => () => inTree(`mv lib lib.old && ln -s ${outside} lib`),
  // Before each call the action writes its settings into the state folder the previous call owned.
  'claude-settings-link': () =>
    nextCall(createClaudeAdapter, `d=$(dirname "$CLAUDE_CONFIG_DIR"); ln -sf ${outside}/victim "$d/settings.json"`),
  'gemini-folder-link': () =>
    nextCall(createGeminiAdapter, `rm -rf "$GEMINI_CLI_HOME/.gemini"; ln -s ${outside} "$GEMINI_CLI_HOME/.gemini"`),
  'codex-config-fifo': () =>
    nextCall(createCodexAdapter, 'rm -f "$CODEX_HOME/config.toml"; mkfifo "$CODEX_HOME/config.toml"'),
  'opencode-folder-link': () =>
    nextCall(createOpencodeAdapter, `rm -rf "$XDG_CONFIG_HOME/opencode"; ln -s ${outside} "$XDG_CONFIG_HOME/opencode"`),
  // After a Codex call the action reads the session's rollout file in its state folder.
  'codex-rollout-fifo': codexRollout('mkfifo'),
  'codex-rollout-devzero': codexRollout('ln -s /dev/zero'),
  'codex-rollout-sparse': codexRollout(`truncate -s ${TWO_GB}`),
  // Before an OpenCode reviewer starts, the action reads the checkout's OpenCode documents.
  'opencode-document-fifo': async () => {
    await inTree('mkfifo opencode.json');
    return () => call(adapter(createOpencodeAdapter, fakeCli('opencode', 'exit 0')), invocation('reviewer'));
  },
};

/** Every path below `dir`, with a regular file's text. */
function listing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.relative(dir, path.join(e.parentPath ?? e.path, e.name));
    out[p] = e.isFile() ? readFileSync(path.join(dir, p), 'utf8') : e.isSymbolicLink() ? 'link' : 'folder';
  }
  return out;
}

const name = process.argv[2]!;
const scenario = SCENARIOS[name];
if (!scenario) throw new Error(`no scenario ${name}; one of ${Object.keys(SCENARIOS).join(', ')}`);
let result: unknown;
let ms = 0;
try {
  const step = await scenario();
  const start = Date.now();
  result = await step();
  ms = Date.now() - start;
} finally {
  await (sandbox as Sandbox).close();
}
const libGit = (() => {
  try {
    return readFileSync(path.join(repo, 'lib', '.git'), 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code;
  }
})();
const outcome = {
  result: typeof result === 'string' ? result : null,
  ms,
  maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  outside: listing(outside),
  libGit,
  log,
};
rmSync(top, { recursive: true, force: true });
console.log(JSON.stringify(outcome));
