// Codex sandboxes the model's commands with the first `bwrap` on PATH when there is one; an old one
// (before 0.9.0: no --argv0, as Debian 12 and Ubuntu 22.04 ship) cannot start Codex's helper, and
// every command fails with "bwrap: execvp codex-linux-sandbox". The adapter puts Codex's own bwrap
// first on the CLI's PATH (src/agents/codex-bubblewrap.ts). Here an old bwrap stands first on the
// parent's PATH: a stand-in that answers --help as 0.8.0 does and fails any sandbox it is asked for,
// so the real CLI must sandbox its commands without it, read-only for a reviewer all the same;
// also inside the action's own sandbox (as root, the way the action runs on a hosted runner).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { codexBubblewrapFolder } from '../../src/agents/codex-bubblewrap.js';
import { createCodexAdapter } from '../../src/agents/codex.js';
import type { Invocation } from '../../src/agents/types.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';
import { emptyHome } from '../sandbox/empty-home.js';
import { envelopeText, startFakeModelServer, toolThenText } from '../fakes/model-server/index.js';
import type { FakeModelServer } from '../fakes/model-server/index.js';
import { cachedCliBin } from './cli-cache.js';
import {
  CONTEXT_MARKER,
  codexFakeProvider,
  FAKE_MODEL_KEY,
  invocation,
  makeWorkspace,
  parentEnv,
  reviewerPayload,
  type Workspace,
} from './helpers.js';

const MODEL = 'gpt-5.5';
/** bubblewrap 0.8.0's --help lists --as-pid-1 and --perms, and no --argv0. */
const OLD_BWRAP = `#!/bin/sh
if [ "$1" = "--help" ]; then
  printf '%s\n' "usage: bwrap [OPTIONS...] [--] COMMAND [ARGS...]" "    --as-pid-1" "    --perms OCTAL"
  exit 0
fi
echo ran >> "$(dirname "$0")/ran"
echo "bwrap: execvp codex-linux-sandbox: No such file or directory" >&2
exit 1
`;

let fake: FakeModelServer;
let bin: string;
let ws: Workspace;
let oldBwrapDir: string;
beforeAll(async () => {
  bin = await cachedCliBin('codex');
  fake = await startFakeModelServer({ apiKey: FAKE_MODEL_KEY });
});
afterAll(() => fake?.close());
beforeEach((ctx) => {
  ws = makeWorkspace('codex-bwrap');
  fake.requests.length = 0;
  ctx.onTestFinished(() => ws.cleanup());
  oldBwrapDir = path.join(ws.root, 'old-bwrap');
  mkdirSync(oldBwrapDir);
  writeFileSync(path.join(oldBwrapDir, 'bwrap'), OLD_BWRAP);
  chmodSync(path.join(oldBwrapDir, 'bwrap'), 0o755);
});

/** The adapter with the old bwrap first on the parent's PATH. */
function adapter() {
  const env = parentEnv(ws, { FAKE_API_KEY: FAKE_MODEL_KEY });
  env.PATH = `${oldBwrapDir}${path.delimiter}${env.PATH}`;
  return createCodexAdapter({ binPath: bin, baseEnv: env, agentConfig: codexFakeProvider(fake.url) });
}
const shell = (cmd: string) => ({ name: 'exec_command', input: { cmd } });
const toolResults = () => fake.requests.flatMap((r) => r.toolResults).join('\n');

it('finds the bwrap Codex ships, a bubblewrap built for Codex', () => {
  const folder = codexBubblewrapFolder(bin);
  expect(folder).not.toBeNull();
  expect(execFileSync(path.join(folder!, 'bwrap'), ['--version'], { encoding: 'utf8' })).toContain('bubblewrap');
});

it("runs a reviewer's shell command in Codex's own sandbox, never through an old bwrap on PATH", async () => {
  fake.setScript(toolThenText(shell(`cat ${path.join(ws.contextDir, 'pr.json')}`), envelopeText(reviewerPayload)));
  await adapter().run(invocation(ws, { role: 'reviewer', model: MODEL }));
  expect(toolResults()).toContain(CONTEXT_MARKER);
  expect(toolResults()).not.toContain('execvp codex-linux-sandbox');
  expect(existsSync(path.join(oldBwrapDir, 'ran'))).toBe(false);
});

it("keeps the reviewer's shell read-only in that sandbox", async () => {
  const target = path.join(ws.cwd, 'written.txt');
  fake.setScript(toolThenText(shell(`echo reviewer > ${target}`), envelopeText(reviewerPayload)));
  await adapter().run(invocation(ws, { role: 'reviewer', model: MODEL }));
  expect(existsSync(target)).toBe(false);
  expect(toolResults()).toMatch(/Read-only file system|Permission denied/);
  expect(existsSync(path.join(oldBwrapDir, 'ran'))).toBe(false);
});

describe.runIf(process.getuid?.() === 0)("in the action's sandbox", () => {
  let top: string;
  let repo: string;
  let sandbox: Sandbox;
  const home = emptyHome();
  beforeAll(async () => {
    // mkdtemp makes 0700 folders: the sandbox user is let in by the sandbox, and only there.
    top = mkdtempSync(path.join(tmpdir(), 'codex-sandboxed-'));
    chmodSync(top, 0o755);
    repo = path.join(top, 'repo');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', repo]);
    writeFileSync(path.join(repo, 'app.txt'), 'let x = 1\n');
    mkdirSync(path.join(top, 'scratch', 'context'), { recursive: true, mode: 0o700 });
    writeFileSync(path.join(top, 'scratch', 'context', 'pr.json'), `${CONTEXT_MARKER}\n`);
    mkdirSync(path.join(top, 'old-bwrap'), { mode: 0o755 });
    writeFileSync(path.join(top, 'old-bwrap', 'bwrap'), OLD_BWRAP, { mode: 0o755 });
    sandbox = await createSandbox('required', repo, { env: home.env });
  });
  afterAll(async () => {
    await sandbox?.close();
    rmSync(top, { recursive: true, force: true });
    home.remove();
  });
  const run = (cmd: string) => {
    fake.setScript(toolThenText(shell(cmd), envelopeText(reviewerPayload)));
    // The old bwrap first on PATH; in the call, a PATH folder below /tmp is shown read-only.
    const env = { PATH: `${path.join(top, 'old-bwrap')}:/usr/local/bin:/usr/bin:/bin`, FAKE_API_KEY: FAKE_MODEL_KEY };
    const codex = createCodexAdapter({ binPath: bin, baseEnv: env, sandbox, agentConfig: codexFakeProvider(fake.url) });
    const inv: Invocation = {
      ...{ role: 'reviewer', name: 'reviewer-1', model: MODEL, prompt: 'Review app.txt.', cwd: repo, round: 1 },
      ...{ contextDir: path.join(top, 'scratch', 'context'), stateDir: path.join(top, 'scratch', 'reviewer-home') },
      timeoutMs: 120_000,
    };
    return codex.run(inv);
  };

  it('reads the context folder through a shell command', async () => {
    await run(`cat ${path.join(top, 'scratch', 'context', 'pr.json')}`);
    expect(toolResults()).toContain(CONTEXT_MARKER);
    expect(toolResults()).not.toContain('execvp codex-linux-sandbox');
  });

  it('cannot write the checkout', async () => {
    await run(`echo reviewer > ${path.join(repo, 'written.txt')}`);
    expect(existsSync(path.join(repo, 'written.txt'))).toBe(false);
    expect(toolResults()).toMatch(/Read-only file system|Permission denied/);
  });
});
