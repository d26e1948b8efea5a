// sudo and a Docker client in the project's own commands, through the real sandbox (as root, as
// this project's CI runs): they fail, and the failure says why and what to do.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookRunner } from '../../src/commands/hooks.js';
import { runVerify } from '../../src/commands/verify.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';
import { emptyHome } from './empty-home.js';
import { sudoMissing } from './sudo-available.js';

const isRoot = process.getuid?.() === 0;
// What a call's own `sudo` prints is what the hint is drawn from: without sudo there is nothing to withhold.
const noSudo = isRoot ? sudoMissing() : null;
const hasDocker = existsSync('/usr/local/bin/docker') || existsSync('/usr/bin/docker');
const PATH = '/usr/local/bin:/usr/bin:/bin';
let top: string;
let repo: string;
let sandbox: Sandbox;
let daemon: Server;
let socket: string;
/** HOME for the sandboxes: these tests are not about its view. */
const home = emptyHome();
afterAll(() => home.remove());

beforeAll(async () => {
  if (!isRoot) return;
  top = mkdtempSync(path.join(tmpdir(), 'withheld-'));
  repo = path.join(top, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(path.join(repo, 'a.txt'), 'a\n');
  execFileSync('git', ['-C', repo, 'add', 'a.txt']);
  sandbox = await createSandbox('required', repo, { env: home.env });
  // The runner's Docker socket as on a hosted runner: root's and the docker group's, 0660.
  socket = path.join(top, 'docker.sock');
  daemon = createServer((c) => c.end());
  await new Promise<void>((resolve) => daemon.listen(socket, resolve));
  chmodSync(socket, 0o660);
});
afterAll(async () => {
  if (!isRoot) return;
  await sandbox.close();
  await new Promise((resolve) => daemon.close(resolve));
  rmSync(top, { recursive: true, force: true });
});

const verify = (command: string, env: NodeJS.ProcessEnv = { PATH }, sb: Sandbox = sandbox) =>
  runVerify([command], { cwd: repo, env, timeoutMs: 20_000, sandbox: sb, redact: (t) => t, log: () => undefined });

describe.runIf(isRoot)('commands the sandbox withholds', () => {
  it('sudo in a verify command: fails, and says why', async ({ skip }) => {
    if (noSudo) return skip(noSudo);
    const r = await verify('sudo apt-get install -y libpq-dev');
    expect(r.ok).toBe(false);
    expect(r.results[0]!.outputTail).toContain('no new privileges');
    expect(r.withheld).toMatch(
      /^`sudo` cannot work here: the sandbox runs verify commands and hooks as an unprivileged/,
    );
    expect(r.withheld).toContain('`isolation: off`');
  });

  it.runIf(hasDocker)("a Docker client and the runner's socket: fails, and says why", async () => {
    const r = await verify('docker ps', { PATH, DOCKER_HOST: `unix://${socket}` });
    expect(r.results[0]!.outputTail).toContain('permission denied while trying to connect to the Docker daemon socket');
    expect(r.withheld).toMatch(/^Docker cannot work here: the sandbox withholds the Docker daemon/);
    expect(r.withheld).toContain("Run such tests in the project's CI");
  });

  it.runIf(hasDocker && !existsSync('/var/run/docker.sock'))(
    'a Docker client on a runner without Docker: the sandbox withholds nothing, so nothing is said',
    async () => {
      const r = await verify('docker ps', { PATH, DOCKER_HOST: `unix://${path.join(top, 'no-such.sock')}` });
      expect(r.results[0]!.outputTail).toContain('Cannot connect to the Docker daemon');
      expect(r.withheld).toBeUndefined();
    },
  );

  it('a hook: the run stops with why', async ({ skip }) => {
    if (noSudo) return skip(noSudo);
    const scratch = path.join(top, 'scratch');
    const hooks = createHookRunner({
      hooks: { 'before-review': ['sudo -n true'], 'after-review': [], 'after-fix': [], 'after-finish': [] },
      scratchDir: scratch,
      cwd: repo,
      env: { PATH },
      timeoutMs: 20_000,
      sandbox,
      redact: (t) => t,
      log: () => undefined,
    });
    await expect(hooks.run('before-review', {})).rejects.toThrow(
      /the run was stopped\. `sudo` cannot work here: .* set `isolation: off`/,
    );
  });

  it('with isolation off nothing is withheld, so nothing is said', async () => {
    const off = await createSandbox('off', repo);
    const r = await verify('echo "sudo: a password is required"; exit 1', { PATH }, off);
    expect(r.ok).toBe(false);
    expect(r.withheld).toBeUndefined();
  });
});
