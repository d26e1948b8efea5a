// One run of setup-home.test.ts, in a process of its own (bundled by the test, started as root or
// as an ordinary user with passwordless sudo): `setup` writes a cache, a shell start-up file,
// registry configurations holding a token (npm's) and a passphrase (Maven's), a Python `.pth` file,
// a program in a PATH folder, an agent CLI's settings, git's configuration and a credential into
// the runner's HOME view; then calls of each kind look at HOME, a verify call writes over setup's
// files, and setup runs again. Prints one JSON line: what each call saw, the setup layers' folders
// before and after the second setup, and the log.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { callAccess } from '../../src/agents/call-access.js';
import type { Invocation, Role } from '../../src/agents/types.js';
import { runSetup } from '../../src/commands/setup.js';
import { runVerify } from '../../src/commands/verify.js';
import { createGit } from '../../src/git/runner.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';

const log: string[] = [];
const top = mkdtempSync(path.join(process.env.PROBE_TOP!, 'setup-home-'));
chmodSync(top, 0o755);
// The runner's HOME, with a cache of its own.
const home = path.join(top, 'home');
mkdirSync(path.join(home, '.npm/_cacache'), { recursive: true, mode: 0o755 });
writeFileSync(path.join(home, '.npm/_cacache/runner-entry'), 'runner-cache\n', { mode: 0o644 });
const repo = path.join(top, 'repo');
mkdirSync(repo);
execFileSync('git', ['init', '-q', repo]);
writeFileSync(path.join(repo, 'a.txt'), 'a\n');
execFileSync('git', ['-C', repo, 'add', 'a.txt']);
execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'a']);

// ~/.local/bin first on PATH, as pip's and pipx's installs put it.
const env = { HOME: home, PATH: `${home}/.local/bin:/usr/local/bin:/usr/bin:/bin` };
const sandbox = await createSandbox('required', repo, { log: (l) => log.push(l), env, namespaces: true });
// For the test to remove, should this process be killed before it closes the sandbox.
console.error(`sandbox user: ${sandbox.user}`);

const SITE = '.local/lib/python3.11/site-packages';
const MAVEN_SETTINGS =
  '<settings><profiles><profile><properties><gpg.passphrase>SETUP-SECRET-gpg</gpg.passphrase>' +
  '<maven.compiler.source>17</maven.compiler.source></properties></profile></profiles></settings>';
const SETUP = [
  [
    'mkdir -p ~/.npm/_cacache && echo setup-cache > ~/.npm/_cacache/x',
    'echo "echo bashrc-ran" > ~/.bashrc',
    'printf "registry=https://npm.example.com/\\n//npm.example.com/:_authToken=SETUP-SECRET-npmrc\\n' +
      '@q:registry=https://q.example.com/?token=SETUP-SECRET-query&scope=q\\n" > ~/.npmrc',
    // Maven's GPG plugin reads its passphrase from a profile's properties.
    `mkdir -p ~/.m2 && echo '${MAVEN_SETTINGS}' > ~/.m2/settings.xml`,
  ].join(' && '),
  [
    `mkdir -p ~/${SITE} ~/.local/bin ~/.config/claude ~/.cache/pip/wheels`,
    `echo "import os; os.system('echo pth-ran')" > ~/${SITE}/evil.pth`,
    'printf "#!/bin/sh\\necho tool-ran\\n" > ~/.local/bin/tool && chmod 755 ~/.local/bin/tool',
    'echo "{\\"hooks\\":{\\"SessionStart\\":[]}}" > ~/.config/claude/settings.json',
    'printf "[user]\\n\\tname = setup-gitconfig\\n" > ~/.gitconfig',
    'echo "machine x login y password SETUP-SECRET-netrc" > ~/.netrc',
    'echo wheel > ~/.cache/pip/wheels/w.whl',
  ].join(' && '),
];

const FILES = [
  '.npm/_cacache/x',
  '.npm/_cacache/runner-entry',
  '.npm/_cacache/new',
  '.npm/_cacache/second',
  '.bashrc',
  '.npmrc',
  '.m2/settings.xml',
  `${SITE}/evil.pth`,
  '.local/bin/tool',
  '.config/claude/settings.json',
  '.gitconfig',
  '.netrc',
  '.cache/pip/wheels/w.whl',
];
/** Every file of FILES the call can see, with its content, then what `tool` on PATH runs. */
const REPORT =
  `for f in ${FILES.join(' ')}; do [ -e "$HOME/$f" ] && { echo "== $f"; cat "$HOME/$f"; }; done; ` +
  'echo "== tool on PATH"; tool 2>/dev/null; echo end';

const common = { cwd: repo, env, timeoutMs: 20_000, redact: (t: string) => t, log: (l: string) => log.push(l) };
const verify = async (script: string) => {
  const r = await runVerify([script], { ...common, sandbox });
  return r.results.map((x) => x.outputTail).join('\n');
};
const setup = async (commands: string[]) => {
  const git = createGit(repo);
  const run = await runSetup(commands, {
    ...common,
    git,
    limitMs: 60_000,
    sandbox,
    checkout: { afterSetup: async () => [] },
  });
  if (!run.ok) throw new Error(`setup failed: ${JSON.stringify(run.results)}`);
};
/** A call of an agent role, run as its adapter runs it (its access from callAccess). */
const agent = async (role: Role) => {
  const scratch = mkdtempSync(path.join(top, `${role}-`));
  const inv: Invocation = {
    role,
    name: role,
    model: 'm',
    prompt: '',
    cwd: repo,
    contextDir: path.join(scratch, 'context'),
    stateDir: path.join(scratch, 'state'),
    round: 1,
    timeoutMs: 20_000,
  };
  mkdirSync(inv.contextDir, { mode: 0o700 });
  mkdirSync(inv.stateDir, { mode: 0o700 });
  const spec = { command: '/bin/sh', args: ['-c', REPORT], cwd: repo, env, timeoutMs: 20_000 };
  const r = await sandbox.run(spec, callAccess(inv));
  return r.stdout + r.stderr;
};
const base = path.join(
  tmpdir(),
  readdirSync(tmpdir()).find((n) => n.startsWith(`${sandbox.user}-`))!,
);
/** The folders setup's layers sit in, below the sandbox's own folder. */
const layers = () => readdirSync(base).filter((n) => n.startsWith('setup-home-'));
/** Who may enter a layers' folder: the action's own user only, so no call can reach setup's files there. */
const access = (dir: string) => {
  const st = statSync(path.join(base, dir));
  return { mode: (st.mode & 0o777).toString(8), ownUser: st.uid === process.getuid!() };
};

const out: Record<string, unknown> = {};
try {
  await setup(SETUP);
  out.verify = await verify(REPORT);
  out.fixer = await agent('fixer');
  out.confirm = await agent('confirm');
  out.reviewer = await agent('reviewer');
  out.analyzer = await agent('analyzer');
  out.write = await verify(
    'echo overwritten > ~/.npm/_cacache/x && echo new > ~/.npm/_cacache/new && rm ~/.bashrc && echo wrote',
  );
  out.afterWrite = await verify(REPORT);
  out.layersBefore = layers();
  out.layerAccess = access(layers()[0]!);
  await setup(['mkdir -p ~/.npm/_cacache && echo second-setup > ~/.npm/_cacache/second']);
  out.afterSecondSetup = await verify(REPORT);
  out.layersAfter = layers();
  out.realHome = execFileSync('find', [home, '-mindepth', '1'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((p) => path.relative(home, p))
    .sort();
} finally {
  await sandbox.close();
}
// The run's end takes setup's layers along with the sandbox's folder.
out.baseAfterClose = existsSync(base);
out.log = log;
console.log(JSON.stringify(out));
