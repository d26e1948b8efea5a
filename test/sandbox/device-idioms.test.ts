// The shell idioms a project's verify commands use for devices and the kernel's views, run as
// verify commands through the real sandbox (these tests run as root, as this project's CI does, so
// the action can create its user). A path a verify command names is shown to its call
// (src/sandbox/named-paths.ts), but never one under /dev, /proc or /sys: the call's own /dev and
// /proc (bubblewrap's --dev and --proc) already hold what the idioms need, and a mounted-back host
// path there either has no device access or shows the host.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../../src/commands/verify.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';
import { emptyHome } from './empty-home.js';

const isRoot = process.getuid?.() === 0;
let top: string;
let repo: string;
let sandbox: Sandbox;
/** HOME for the sandboxes: these tests are not about its view. */
const home = emptyHome();
afterAll(() => home.remove());

beforeAll(async () => {
  if (!isRoot) return;
  top = mkdtempSync(path.join(tmpdir(), 'device-idioms-'));
  repo = path.join(top, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(path.join(repo, 'a.txt'), 'a\n');
  execFileSync('git', ['-C', repo, 'add', 'a.txt']);
  sandbox = await createSandbox('required', repo, { env: home.env });
});
afterAll(async () => {
  if (!isRoot) return;
  await sandbox.close();
  rmSync(top, { recursive: true, force: true });
});

/** One verify command through the sandbox, as fix-round.ts runs it: its exit and its output. */
async function verify(command: string): Promise<{ exitCode: number | null; output: string }> {
  const r = await runVerify([command], {
    cwd: repo,
    env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
    timeoutMs: 20_000,
    sandbox,
    redact: (t) => t,
    log: () => undefined,
  });
  const result = r.results[0]!;
  return { exitCode: result.exitCode, output: result.outputTail };
}

describe.runIf(isRoot)('device and kernel idioms in a verify command', () => {
  it('2>/dev/null', async () => {
    const r = await verify("sh -c 'echo noise >&2; echo kept' 2>/dev/null");
    expect(r).toEqual({ exitCode: 0, output: 'kept' });
  });

  it('>/dev/null', async () => {
    const r = await verify('echo hidden >/dev/null && echo shown');
    expect(r).toEqual({ exitCode: 0, output: 'shown' });
  });

  it('</dev/null', async () => {
    const r = await verify('wc -c </dev/null');
    expect(r).toEqual({ exitCode: 0, output: '0' });
  });

  it('/dev/stderr', async () => {
    // Verify folds stderr into stdout: what goes to /dev/stderr is in the output.
    const r = await verify('echo to-stderr >/dev/stderr');
    expect(r).toEqual({ exitCode: 0, output: 'to-stderr' });
  });

  it('head -c 16 /dev/urandom', async () => {
    const r = await verify('head -c 16 /dev/urandom | wc -c');
    expect(r).toEqual({ exitCode: 0, output: '16' });
  });

  it('/proc/self/status', async () => {
    const r = await verify('grep -E "^(Pid|Uid):" /proc/self/status');
    expect(r.exitCode, r.output).toBe(0);
    const [pid, uid] = r.output.split('\n').map((line) => Number(line.split(/\s+/)[1]));
    // The call's own process: a pid of the call's namespace (bwrap is its 1), the sandbox user's uid.
    expect(pid).toBeLessThan(10);
    expect(uid).toBeGreaterThanOrEqual(1_000_000_000);
  });

  it("naming /proc shows the call's processes, never the host's", async () => {
    const r = await verify("echo $(ls /proc | grep -E '^[0-9]+$')");
    expect(r.exitCode).toBe(0);
    const pids = r.output.split(' ');
    // The test's own process is on the host; the call's namespace holds bwrap, the shell and ls.
    expect(pids).not.toContain(String(process.pid));
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.length).toBeLessThan(10);
  });

  it('a socket the workflow names keeps working (a database socket)', async () => {
    // Below /tmp, which every call has empty and private: the named socket is shown all the same.
    const dir = mkdtempSync(path.join(tmpdir(), 'db-'));
    const socket = path.join(dir, '.s.PGSQL.5432');
    const server: Server = createServer((c) => c.end('pong\n'));
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      chmodSync(socket, 0o666);
      const r = await verify(`node -e "require('net').connect('${socket}').pipe(process.stdout)"`);
      expect(r).toEqual({ exitCode: 0, output: 'pong' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a FIFO the workflow names keeps working', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fifo-'));
    const fifo = path.join(dir, 'events');
    execFileSync('mkfifo', ['-m', '0666', fifo]);
    try {
      const r = await verify(`(echo through-fifo > ${fifo} &) ; cat ${fifo}`);
      expect(r).toEqual({ exitCode: 0, output: 'through-fifo' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
