// A call does not outlive an action killed outright (the OOM killer, the runner's last SIGKILL, a
// crash): nothing of the action runs then, so no cleanup of its own can. Each call is started under a
// root watchdog (src/process/call-watchdog.sh) that holds a pipe from the action and kills the call
// when the kernel closes it. Before, on the sudo path the call's bubblewrap had sudo for a parent,
// which lives on, and a heartbeat was still beating a minute later. On both privilege paths.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWorld, ROOT, type World } from '../harness.js';
import { PRIVILEGE_PATHS, reachableBundle, reachableNode, runnerUser } from '../runner-user.js';
import { PLANTED_BUG_RULES } from '../scenarios.js';

let world: World;
let loot: string;
let tag: string;
let sandboxUser: string | undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const userExists = (name: string) => spawnSync('getent', ['passwd', name]).status === 0;

beforeEach(async () => {
  world = await createWorld();
  loot = path.join(world.dir, 'agent-io', 'loot');
  mkdirSync(loot);
  chmodSync(loot, 0o777);
  tag = `heartbeat-${process.pid}-${Date.now()}`;
  // A heartbeat, and a second one that left its process group and session.
  const beat = `#!/bin/sh\nwhile :; do date +%s%N >> "$SPY_LOOT/$1"; sleep 0.1; done\n`;
  writeFileSync(path.join(loot, 'beat.sh'), beat, { mode: 0o755 });
  sandboxUser = undefined;
});
afterEach(async () => {
  spawnSync('pkill', ['-KILL', '-f', tag]);
  // Where the post step did not get to run: the sandbox user the kill left is removed here.
  if (sandboxUser) {
    spawnSync('pkill', ['-KILL', '-u', sandboxUser]);
    spawnSync('userdel', ['--remove', sandboxUser]);
  }
  await world.close();
});

it.each(PRIVILEGE_PATHS)(
  'leaves nothing of a call running once the action is killed mid-call, $how',
  async ({ asRunnerUser }) => {
    const beats = path.join(loot, 'beats');
    let checkoutDir = '';
    const r = await world.run({
      asRunnerUser,
      rules: PLANTED_BUG_RULES,
      inputs: {
        // The kill comes in the fix's verify, after the reviewers ran (their state folders are on
        // tmpfs), not in the head's test run before the first review.
        'verify-head': 'false',
        'verify-env': 'SPY_LOOT',
        verify: `setsid sh ${path.join(loot, 'beat.sh')} escaped ${tag} & sh ${path.join(loot, 'beat.sh')} beats ${tag}`,
      },
      extraEnv: { SPY_LOOT: loot },
      prepare: async (checkout) => void (checkoutDir = checkout.dir),
      interrupt: async (signal) => {
        while (!existsSync(beats)) await sleep(50);
        signal('SIGKILL');
      },
    });
    sandboxUser = /run as the unprivileged user (prl-[0-9a-f]+)/.exec(r.stdout)?.[1];
    expect(sandboxUser, r.stdout).toBeDefined();
    // 2 s after the kill: nothing of the call runs, and no heartbeat grows.
    await sleep(2_000);
    expect(spawnSync('pgrep', ['-f', tag], { encoding: 'utf8' }).stdout.trim()).toBe('');
    const sizes = () =>
      ['beats', 'escaped'].map((f) => (existsSync(path.join(loot, f)) ? statSync(path.join(loot, f)).size : 0));
    const before = sizes();
    await sleep(500);
    expect(sizes()).toEqual(before);

    // The post step, as the runner runs it after the job's steps: it removes what the killed run
    // left of its sandbox, from the state the run saved.
    const state = /::save-state name=sandbox::(.*)/.exec(r.stdout)?.[1];
    expect(state, r.stdout).toBeDefined();
    expect(userExists(sandboxUser!)).toBe(true);
    // The reviewer's state folder, in RUNNER_TEMP, is still on its tmpfs (src/sandbox/bounded-layers.ts).
    const layers = () =>
      readFileSync('/proc/self/mounts', 'utf8')
        .split('\n')
        .filter((l) => l.startsWith(`${sandboxUser}-layer `));
    expect(layers().length).toBeGreaterThan(0);
    const uid = JSON.parse(state!).uid as number;
    const as = asRunnerUser ? runnerUser() : null;
    // As the runner user, from a copy of dist/ it can reach (`.ci/run` clones into a private folder).
    const post = path.join(
      path.dirname(as ? reachableBundle(path.join(ROOT, 'dist/index.js')) : path.join(ROOT, 'dist/index.js')),
      'post.js',
    );
    const argv = as
      ? [
          'setpriv',
          '--reuid',
          String(as.uid),
          '--regid',
          String(as.gid),
          '--init-groups',
          reachableNode(process.execPath),
          post,
        ]
      : [process.execPath, post];
    const ran = spawnSync(argv[0]!, argv.slice(1), {
      env: { PATH: process.env.PATH, STATE_sandbox: state, ...(as ? { HOME: as.home } : {}) },
      encoding: 'utf8',
    });
    expect(ran.status, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toContain(`removed the user`);
    expect(userExists(sandboxUser!), ran.stdout).toBe(false);
    expect(layers()).toEqual([]);
    // Nothing in the checkout belongs to the sandbox user any more.
    const lent = spawnSync('find', [checkoutDir, '-uid', String(uid)], { encoding: 'utf8' }).stdout.trim();
    expect(lent).toBe('');
  },
);
