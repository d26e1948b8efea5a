// Each sandboxed call in a cgroup of its own (src/process/call-watchdog.sh, src/sandbox/call-limits.ts):
// what its processes write to its private /tmp or /dev/shm (memory that belongs to no process) and
// how many processes it starts are bounded, a call past a bound is stopped and says so, and the next
// call runs as usual. Runs as root, as CI does, where the machine has a cgroup to bound calls with.
// The cgroup v2 stage (scripts/cgroup-v2/scenarios.sh, PRL_CGROUP_STAGE=v2) runs some of these on
// cgroup v2 also as an ordinary user with passwordless sudo, as on a hosted runner, and fails
// where the machine has no cgroup v2 to bound calls with instead of skipping.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectBounding, parseCallLimits } from '../../src/sandbox/call-limits.js';
import { detectPrivilege } from '../../src/sandbox/privilege.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';
import { emptyHome } from './empty-home.js';

/** The cgroup kind the stage runs on ('v2'), or undefined in the usual suites. */
const STAGE = process.env.PRL_CGROUP_STAGE;
// As an ordinary user only in the stage: the usual suites never make users through a developer's sudo.
const found = process.getuid?.() === 0 ? { privilege: 'root' as const } : STAGE ? await detectPrivilege() : null;
const bounding = found?.privilege
  ? await detectBounding(found.privilege)
  : { kind: null, reason: found ? found.reason : 'not root' };
if (bounding.kind === null) console.log(`call-bounds.test.ts: skipped (${bounding.reason})`);

let top: string;
let repo: string;
let sandbox: Sandbox;
const lines: string[] = [];
/** HOME for the sandboxes: these tests are not about its view. */
const home = emptyHome();
afterAll(() => home.remove());

// One sandbox for the file, as one run's calls share one: each call is bounded on its own, and a
// call stopped at a bound must leave the next one running as usual. (In an emulated machine making
// a sandbox takes half a minute.)
beforeAll(async () => {
  if (bounding.kind === null && STAGE === undefined) return;
  top = mkdtempSync(path.join(tmpdir(), 'call-bounds-'));
  repo = path.join(top, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(path.join(repo, 'a.txt'), 'a\n');
  sandbox = await createSandbox('required', repo, {
    env: home.env,
    callLimits: parseCallLimits('memory=192M pids=64 cpu-weight=50'),
    log: (line) => lines.push(line),
  });
});
afterAll(async () => {
  await sandbox?.close();
  if (top) rmSync(top, { recursive: true, force: true });
});

/** Runs `script` as a call; `writes`: it may write the checkout, as verify, hooks and the fixer may. */
const sh = (script: string, o: { timeoutMs?: number; inside?: Sandbox; writes?: boolean } = {}) =>
  (o.inside ?? sandbox).run(
    {
      command: '/bin/sh',
      args: ['-c', script],
      cwd: repo,
      env: { PATH: process.env.PATH! },
      timeoutMs: o.timeoutMs ?? 60_000,
    },
    o.writes ? { workTree: repo } : {},
  );

const MiB = 1024 ** 2;
describe.runIf(STAGE !== undefined)(`the cgroup ${STAGE ?? 'v2'} stage`, () => {
  it(`ran on cgroup ${STAGE ?? 'v2'}, and the log says so`, () => {
    expect(bounding).toEqual({ kind: STAGE });
    const line = lines.find((l) => l.includes('each call in a cgroup'));
    expect(line).toContain(`each call in a cgroup (${STAGE}) of its own`);
    console.log(`cgroup stage, as ${found?.privilege}: ${line}`);
  });
});

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
    // The bomb, then more processes than the bound from the call's own shell: the first fork refused
    // ends that shell (sh stops at "Cannot fork"), so the call ends when it meets its bound, however
    // slowly the machine forks (an emulated one took more than a 4 s timeout to start the bomb).
    const more = 'i=0; while [ $i -lt 256 ]; do sleep 600 & i=$((i + 1)); done';
    const r = await sh(`sh -c 'b() { b | b & }; b; ${more}' ${tag}`, { timeoutMs: 120_000 });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('reached its bound on processes');
    expect(spawnSync('pgrep', ['-f', tag], { encoding: 'utf8' }).stdout.trim()).toBe('');
  });

  // A real disk (the checkout's, below the temp folder), its floor set 512 MiB below what is free
  // now: a verify writing 2 GiB into the checkout crosses it whatever the disk's size, even with
  // others writing to or freeing the same disk meanwhile (a shared machine). Memory is plenty, so that
  // the disk bound is the one met (written pages are the writer's memory too).
  it('stops a call that writes its checkout past its disk bound, and the next runs', async () => {
    const fs = statfsSync(repo);
    const floor = Math.floor((fs.bavail * fs.bsize) / MiB) - 512;
    const writer = await createSandbox('required', repo, {
      env: home.env,
      callLimits: parseCallLimits(`memory=1G pids=64 disk=${floor}M`),
    });
    try {
      const fill = 'head -c 2G /dev/zero > fill; echo "wrote $(du -m fill | cut -f1) MB"';
      const r = await sh(fill, { inside: writer, writes: true });
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toContain('reached its bound on disk (input call-limits) and was stopped');
      expect(r.stdout).not.toMatch(/wrote 2048 MB/);
      // What it wrote stays in the checkout until the run ends: gone, the disk is above the floor again.
      rmSync(path.join(repo, 'fill'), { force: true });
      const next = await sh('echo next', { inside: writer, writes: true });
      expect(next.stdout.trim()).toBe('next');
    } finally {
      await writer.close();
    }
  });
});
