// Each sandboxed call in a cgroup of its own (src/process/call-watchdog.sh, src/sandbox/call-limits.ts):
// what its processes write to its private /tmp or /dev/shm (memory that belongs to no process) and
// how many processes it starts are bounded, a call past a bound is stopped and says so, and the next
// call runs as usual. Runs as root, as CI does, where the machine has a cgroup to bound calls with.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectBounding, parseCallLimits } from '../../src/sandbox/call-limits.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';
import { emptyHome } from './empty-home.js';

const isRoot = process.getuid?.() === 0;
const bounding = isRoot ? await detectBounding('root') : { kind: null, reason: 'not root' };
if (bounding.kind === null) console.log(`call-bounds.test.ts: skipped (${bounding.reason})`);

let top: string;
let repo: string;
let sandbox: Sandbox;
const lines: string[] = [];
/** HOME for the sandboxes: these tests are not about its view. */
const home = emptyHome();
afterAll(() => home.remove());

beforeEach(async () => {
  top = mkdtempSync(path.join(tmpdir(), 'call-bounds-'));
  repo = path.join(top, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(path.join(repo, 'a.txt'), 'a\n');
  lines.length = 0;
  sandbox = await createSandbox('required', repo, {
    env: home.env,
    callLimits: parseCallLimits('memory=192M pids=64 cpu-weight=50'),
    log: (line) => lines.push(line),
  });
});
afterEach(async () => {
  await sandbox.close();
  rmSync(top, { recursive: true, force: true });
});

const sh = (script: string, timeoutMs = 60_000) =>
  sandbox.run({ command: '/bin/sh', args: ['-c', script], cwd: repo, env: { PATH: process.env.PATH! }, timeoutMs }, {});

describe.runIf(bounding.kind !== null)('a call in a cgroup of its own', () => {
  it('says what bounds each call', () => {
    expect(sandbox.unbounded).toBeNull();
    expect(lines.join('\n')).toMatch(/each call in a cgroup \(v[12]\) of its own: memory ≤ 0\.2 GiB .*≤ 64 processes/);
  });

  it("gives the call its stdin (the watchdog's own is the action's pipe)", async () => {
    const r = await sandbox.run(
      {
        command: '/bin/sh',
        args: ['-c', 'cat'],
        cwd: repo,
        env: { PATH: process.env.PATH! },
        timeoutMs: 60_000,
        stdin: 'the prompt',
      },
      {},
    );
    expect(r.stdout).toBe('the prompt');
  });

  it("runs none of its root helpers from the call's PATH (a folder there may be writable by others)", async () => {
    const planted = mkdtempSync('/opt/prl-watchdog-path-');
    try {
      for (const tool of ['mkdir', 'rmdir', 'sed', 'sleep', 'cat']) {
        const script = `#!/bin/sh\necho "$(id -u) ${tool}" >> ${planted}/ran\nexec /bin/${tool} "$@"\n`;
        writeFileSync(path.join(planted, tool), script, { mode: 0o755 });
      }
      const r = await sandbox.run(
        {
          command: '/bin/true',
          args: [],
          cwd: repo,
          env: { PATH: `${planted}:${process.env.PATH}` },
          timeoutMs: 60_000,
        },
        {},
      );
      expect(r.exitCode).toBe(0);
      expect(existsSync(path.join(planted, 'ran')) ? readFileSync(path.join(planted, 'ran'), 'utf8') : '').toBe('');
    } finally {
      rmSync(planted, { recursive: true, force: true });
    }
  });

  it('cannot write /dev/shm, memory outside its bounds', async () => {
    const r = await sh('head -c 1M /dev/zero > /dev/shm/fill && echo wrote; exit 0');
    expect(r.stderr).toContain('Permission denied');
    expect(r.stdout).not.toContain('wrote');
  });

  it.each(['/tmp', '/var/tmp'])('stops a call that fills %s past its memory, and the next call runs', async (dir) => {
    const r = await sh(`head -c 1G /dev/zero > ${dir}/fill; echo "wrote $(du -m ${dir}/fill | cut -f1) MB"`);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('reached its bound on memory (input call-limits) and was stopped');
    expect(r.stdout).not.toMatch(/wrote 1024 MB/);
    const next = await sh('echo next');
    expect(next.stdout.trim()).toBe('next');
  });

  it('bounds a fork bomb to its process count; it ends with its call and says so', async () => {
    const tag = `bomb-${process.pid}-${Date.now()}`;
    const r = await sh(`sh -c 'b() { b | b & }; b; sleep 600' ${tag}`, 4_000);
    // It fails, at its timeout or sooner (its own `sleep` may find no process left to run in).
    expect(r.timedOut || r.exitCode !== 0).toBe(true);
    expect(r.stderr).toContain('reached its bound on processes');
    expect(spawnSync('pgrep', ['-f', tag], { encoding: 'utf8' }).stdout.trim()).toBe('');
  });
});
