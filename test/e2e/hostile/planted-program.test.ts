// A program planted in a folder on PATH never runs as the action. Images and self-hosted runners
// have left folders on PATH writable by everyone (/usr/local/bin 0777); a verify command (PR code)
// writes `git` and `sudo` there, and the action's own later git commands, or the sudo that starts
// the next call, would run them as the action's user, whose environment holds the token. Inside a
// call every folder on PATH is read-only, and the action starts its own programs by absolute paths
// from folders no call can write. On both privilege paths; the loop still fixes and pushes.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWorld, type World } from '../harness.js';
import { PRIVILEGE_PATHS } from '../runner-user.js';
import { PLANTED_BUG_RULES } from '../scenarios.js';

let world: World;
let loot: string;
let bin: string;
let outside: string;
let earlier: string;

beforeEach(async () => {
  world = await createWorld();
  loot = path.join(world.dir, 'agent-io', 'loot');
  // Outside /tmp and the runner's folders, as /usr/local/bin is: a folder every call sees anyway
  // (below /tmp, each call has its own, and a PATH folder there is mounted back read-only).
  // Removed after the test.
  outside = mkdtempSync('/opt/prl-planted-');
  chmodSync(outside, 0o755);
  bin = path.join(outside, 'bin');
  earlier = path.join(outside, 'earlier');
  for (const d of [loot, bin, earlier]) {
    mkdirSync(d);
    chmodSync(d, 0o777);
  }
  // What a planted program does when it runs: says who ran it and with what environment, then
  // does the real program's job so that nothing else gives it away.
  const decoy = (real: string) =>
    `#!/bin/sh\n{ echo "user=$(id -un) $0 $*"; env; } > "${loot}/ran-$$.txt" 2>&1\nexec ${real} "$@"\n`;
  const plant = [
    '#!/bin/sh',
    `printf '%s' '${decoy('/usr/bin/git')}' > "${bin}/git" 2>/dev/null && chmod 755 "${bin}/git"`,
    `printf '%s' '${decoy('/usr/bin/sudo')}' > "${bin}/sudo" 2>/dev/null && chmod 755 "${bin}/sudo"`,
    'exit 0',
  ].join('\n');
  writeFileSync(path.join(loot, 'plant.sh'), `${plant}\n`, { mode: 0o755 });
  // And what someone else put in a folder everyone may write before the run began (another user of
  // a self-hosted runner, an earlier job's PR code): the action must not take these for its own.
  writeFileSync(path.join(earlier, 'git'), decoy('/usr/bin/git'), { mode: 0o755 });
  writeFileSync(path.join(earlier, 'sudo'), decoy('/usr/bin/sudo'), { mode: 0o755 });
});
afterEach(async () => {
  rmSync(outside, { recursive: true, force: true });
  await world.close();
});

it.each(PRIVILEGE_PATHS)('never runs a program a call planted in a folder on PATH, $how', async ({ asRunnerUser }) => {
  const r = await world.run({
    asRunnerUser,
    rules: PLANTED_BUG_RULES,
    inputs: { 'verify-env': 'SPY_LOOT', verify: `sh ${path.join(loot, 'plant.sh')}\nnpm test` },
    extraEnv: { SPY_LOOT: loot, PATH: `${bin}:${earlier}:${process.env.PATH}` },
  });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.outputs.status).toBe('converged');
  // The folder on PATH stayed as the workflow left it: the call could not write it.
  expect(readdirSync(bin)).toEqual([]);
  // And nothing planted ever ran as the action (root, or the runner's user on the sudo path). A
  // call may run what the workflow's PATH holds: that is the workflow's choice, and has no token.
  const ranAsAction = readdirSync(loot)
    .filter((f) => f.startsWith('ran-'))
    .map((f) => readFileSync(path.join(loot, f), 'utf8').split('\n')[0]!)
    .filter((line) => /^user=(root|prl-runner-)/.test(line));
  expect(ranAsAction).toEqual([]);
  expect((await world.headLog())[0]!.body).toContain('Review-Loop-Round: 1');
});
