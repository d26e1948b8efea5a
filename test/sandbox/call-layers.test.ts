// What a call may write, and what bounds it (src/sandbox/bounded-layers.ts, the disk guard of
// src/process/call-watchdog.sh): a read-only call's layer over HOME and its state folder are tmpfs
// of `home=` each, whose pages count in its memory bound; a writing call's layers stay on disk, held
// above the free-disk floor `disk=`. The "disk" here is a tmpfs the test mounts (a real disk would
// have to be filled to its floor); its pages count in the writer's memory too, so the writing calls
// get memory enough. Runs as root, as CI does, where the machine has a cgroup to bound calls with.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectBounding, parseCallLimits } from '../../src/sandbox/call-limits.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';

const isRoot = process.getuid?.() === 0;
const bounding = isRoot ? await detectBounding('root') : { kind: null, reason: 'not root' };
if (bounding.kind === null) console.log(`call-layers.test.ts: skipped (${bounding.reason})`);

const MIB = 1024 ** 2;
let top: string;
let home: string;
let repo: string;
let sandbox: Sandbox | undefined;
const lines: string[] = [];

beforeEach(() => {
  // Below /opt: each call has a /tmp of its own, so a HOME below /tmp would be out of its sight.
  top = mkdtempSync('/opt/prl-sandbox-test-layers-');
  chmodSync(top, 0o755);
  home = path.join(top, 'home');
  mkdirSync(path.join(home, '.cache'), { recursive: true, mode: 0o755 });
  repo = path.join(top, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(path.join(repo, 'a.txt'), 'a\n');
  lines.length = 0;
});
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  for (const m of mountsBelow(top).reverse()) execFileSync('umount', ['-l', m]);
  rmSync(top, { recursive: true, force: true });
});

async function open(limits: string, workDir = repo): Promise<Sandbox> {
  sandbox = await createSandbox('required', workDir, {
    callLimits: parseCallLimits(limits),
    env: { HOME: home, PATH: process.env.PATH },
    log: (line) => lines.push(line),
  });
  return sandbox;
}

/** Runs `script` as a call; `writes`: the call may write the checkout (verify, hooks, the fixer). */
const sh = (script: string, o: { writes?: boolean; owned?: string[]; env?: Record<string, string> } = {}) =>
  sandbox!.run(
    {
      command: '/bin/sh',
      args: ['-c', script],
      cwd: repo,
      env: { PATH: '/usr/bin:/bin', ...o.env },
      timeoutMs: 120_000,
    },
    { ...(o.writes ? { workTree: repo } : {}), ...(o.owned ? { owned: o.owned } : {}) },
  );

/** A tmpfs of `size` at a new folder below the test's: the "disk" of the disk-floor cases. */
function smallDisk(name: string, size: string): string {
  const dir = path.join(top, name);
  mkdirSync(dir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, `prl-test-${name}`, dir]);
  return dir;
}

function mountsBelow(dir: string): string[] {
  return execFileSync('cat', ['/proc/self/mounts'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.split(' ')[1] ?? '')
    .filter((p) => p.startsWith(`${dir}/`));
}

const WRITE_200M = (file: string) =>
  `head -c 200M /dev/zero > "${file}"; echo "wrote $(($(wc -c < "${file}") / 1048576)) MiB"`;

describe.runIf(bounding.kind !== null)('a read-only call writes to memory of a fixed size', () => {
  it('says where what calls write goes', async () => {
    await open('memory=1G home=64M disk=2G');
    expect(lines.join('\n')).toContain(
      'a read-only call writes at most 64 MiB to HOME and as much to its state folder, in memory; the others ' +
        'are stopped when a disk they write to has less than 2048 MiB free',
    );
  });

  it('stops a reviewer that writes 200 MiB to $HOME/.cache at its memory bound (64M)', async () => {
    await open('memory=64M home=512M');
    const r = await sh(WRITE_200M('$HOME/.cache/fill'));
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('reached its bound on memory (input call-limits) and was stopped');
    expect(r.stdout).not.toContain('wrote 200 MiB');
  });

  it('stops it at its bound on home, and says so, where memory is plenty', async () => {
    await open('memory=1G home=32M');
    const r = await sh(WRITE_200M('$HOME/.cache/fill'));
    expect(r.stdout).not.toContain('wrote 200 MiB');
    expect(r.stderr).toMatch(/No space left on device/);
    expect(r.stderr).toContain('reached its bound on home (input call-limits): it filled HOME, 32 MiB each');
  });

  it("bounds its state folder (the command agent's HOME) and keeps it for the next call", async () => {
    const state = path.join(top, 'scratch', 'reviewer-home');
    mkdirSync(state, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(state, 'config.json'), '{"written":"by the action"}\n', { mode: 0o600 });
    await open('memory=64M home=512M');
    const env = { HOME: state };
    const filled = await sh(WRITE_200M('$HOME/fill'), { owned: [state], env });
    expect(filled.stderr).toContain('reached its bound on memory (input call-limits) and was stopped');
    const small = await sh('cat "$HOME/config.json"; echo session > "$HOME/session"', { owned: [state], env });
    expect(small.stdout).toContain('by the action');
    const next = await sh('cat "$HOME/session"', { owned: [state], env });
    expect(next.stdout.trim()).toBe('session');
    // Nothing of it on the disk below: the folder is a tmpfs until the sandbox closes.
    expect(statfsSync(state).type).toBe(0x01021994); // TMPFS_MAGIC
    await sandbox!.close();
    expect(readdirSync(state)).toEqual([]);
    expect(mountsBelow(top)).toEqual([]);
  });
});

describe.runIf(bounding.kind !== null)('a writing call writes to disk above a floor', () => {
  it('may write more to HOME than a read-only call (verify downloads dependencies)', async () => {
    await open('memory=1G home=32M disk=1M');
    const write =
      'head -c 64M /dev/zero > "$HOME/.cache/fill"; echo "wrote $(($(wc -c < "$HOME/.cache/fill") / 1048576)) MiB"';
    const r = await sh(write, { writes: true });
    expect(r.stdout).toContain('wrote 64 MiB');
    expect(r.exitCode).toBe(0);
  });

  it('stops a verify that takes the disk of its HOME layer below the floor, and says which bound', async () => {
    // The sandbox's folder (each call's layer over HOME) on a "disk" of 256 MiB, with a floor of 192.
    const disk = smallDisk('disk', '256M');
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = disk;
    try {
      await open('memory=1G disk=192M');
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    const r = await sh(WRITE_200M('$HOME/.cache/fill'), { writes: true });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(
      /the disk holding \/opt\/prl-sandbox-test-layers-\w+\/disk\/\S+ has \d+ MiB free, below the 192/,
    );
    expect(r.stderr).toContain('reached its bound on disk (input call-limits) and was stopped');
    // The layer went with the call; the next call runs.
    expect(statfsSync(disk).bavail * statfsSync(disk).bsize).toBeGreaterThan(240 * MIB);
    expect((await sh('echo next', { writes: true })).stdout.trim()).toBe('next');
  });

  it('stops a verify that takes the disk of the checkout below the floor', async () => {
    const disk = smallDisk('checkout-disk', '256M');
    const checkout = path.join(disk, 'repo');
    mkdirSync(checkout);
    execFileSync('git', ['init', '-q', checkout]);
    repo = checkout;
    await open('memory=1G disk=192M', checkout);
    const r = await sh(WRITE_200M('fill.bin'), { writes: true });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('reached its bound on disk (input call-limits) and was stopped');
    expect(existsSync(checkout)).toBe(true);
  });
});
