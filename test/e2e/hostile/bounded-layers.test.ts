// What a hostile PR's calls may write is bounded (src/sandbox/bounded-layers.ts, the disk guard of
// src/process/call-watchdog.sh). Before, with `call-limits: memory=128M`, a verify call wrote 700 MiB
// into $HOME/.cache (its layer over HOME was on the runner's disk, bounded by nothing but the disk),
// and a reviewer's call (the `command` agent) wrote 700 MiB into its HOME, the agent's state folder in
// RUNNER_TEMP, on disk too. Now a read-only call writes to a tmpfs counted in its memory bound, and a
// writing call is stopped before a disk it writes to has less than `disk=` (default 1G) free. Through
// the real bundle, on both privilege paths.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWorld, SCRIPTED_AGENT, type World } from '../harness.js';
import { PRIVILEGE_PATHS } from '../runner-user.js';
import { PLANTED_BUG_RULES } from '../scenarios.js';

let world: World;
let disk: string | null = null;

beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  if (disk) spawnSync('umount', ['-l', disk]);
  disk = null;
  await world.close();
});

/** Files of 100 MiB or more below `dir` (the 200 MiB a call wrote, if it is still on disk). */
function bigFiles(dir: string): string[] {
  const out = spawnSync('find', [dir, '-xdev', '-type', 'f', '-size', '+100M'], { encoding: 'utf8' }).stdout;
  return out.split('\n').filter(Boolean);
}

it.each(PRIVILEGE_PATHS)(
  'stops a reviewer that writes 200 MiB into its HOME at its memory bound, and leaves nothing on disk, $how',
  async ({ asRunnerUser }) => {
    const fill = 'head -c 200M /dev/zero > "$HOME/fill"; echo "wrote $(($(wc -c < "$HOME/fill") / 1048576)) MiB" >&2';
    const r = await world.run({
      asRunnerUser,
      inputs: { 'agent-command': `${fill}; node ${SCRIPTED_AGENT}`, 'call-limits': 'memory=128M' },
      rules: PLANTED_BUG_RULES,
    });
    const log = r.stdout + r.stderr;
    // The reviewer's failure, with its output's tail, is in the review report.
    const said = world.github
      .comments(7)
      .map((c) => c.body)
      .join('\n');
    // Before: the state folder in RUNNER_TEMP held it, on the runner's disk, after the run.
    expect(bigFiles(world.dir)).toEqual([]);
    expect(said, log).toContain('reached its bound on memory (input call-limits) and was stopped');
    expect(said).not.toContain('wrote 200 MiB');
  },
);

it.each(PRIVILEGE_PATHS)(
  'stops a verify that writes 300 MiB into the .cache of HOME before the disk has less than 1 GiB free, $how',
  async ({ asRunnerUser }) => {
    // The folder the action keeps each call's layer over HOME in (its TMPDIR) on a "disk" with 1.2 GiB
    // free: a real disk would have to be filled to its floor. A tmpfs's pages count in the writer's
    // memory, so the calls get memory enough for it.
    disk = path.join(world.dir, 'disk');
    mkdirSync(disk);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1224M,mode=1777', `prl-test-disk-${process.pid}`, disk]);
    const fill =
      'head -c 300M /dev/zero > "$HOME/.cache/fill"; echo "wrote $(($(wc -c < "$HOME/.cache/fill") / 1048576)) MiB"';
    const r = await world.run({
      asRunnerUser,
      inputs: { verify: `mkdir -p "$HOME/.cache"; ${fill}`, 'call-limits': 'memory=1G' },
      rules: PLANTED_BUG_RULES,
      extraEnv: { TMPDIR: disk },
    });
    const log = r.stdout + r.stderr;
    // Before: verify passed, and the fix was pushed.
    expect(r.outputs.status, log).toBe('failed');
    // What verify said, in the fix report.
    const said = world.github
      .comments(7)
      .map((c) => c.body)
      .join('\n');
    expect(said).toMatch(/the disk holding \S+ has \d+ MiB free, below the 1024 MiB a call must leave free/);
    expect(said).toContain('reached its bound on disk (input call-limits) and was stopped');
    // The layer went with the call.
    expect(statSync(disk).isDirectory()).toBe(true);
    expect(bigFiles(disk)).toEqual([]);
  },
);
