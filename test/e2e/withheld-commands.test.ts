// A verify command that needs root or the Docker daemon cannot work in its call (the sandbox user
// can never gain privileges, and the daemon's socket is root's and the docker group's). It fails,
// and the fix report says why and what to do, instead of leaving sudo's or Docker's own words to
// be puzzled over. Through the real bundle, on both privilege paths.
import { chmodSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createWorld, type World } from './harness.js';
import { PRIVILEGE_PATHS } from './runner-user.js';
import { PLANTED_BUG_RULES } from './scenarios.js';

let world: World | undefined;
let daemon: Server | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
  if (daemon) await new Promise((resolve) => daemon!.close(resolve));
  daemon = undefined;
});

const WHAT_TO_DO = "Run such tests in the project's CI (the workflows `dispatch-workflows` starts after each push)";

it.each(PRIVILEGE_PATHS)('says why `sudo` in a verify command fails, $how', async ({ asRunnerUser }) => {
  world = await createWorld();
  const r = await world.run({
    asRunnerUser,
    rules: PLANTED_BUG_RULES,
    inputs: { verify: 'sudo apt-get install -y libpq-dev\nnpm test' },
  });
  expect(r.outputs.status, r.stdout).toBe('failed');
  const report = world.github.comments(7).at(-1)!.body;
  // sudo's own words, and ours.
  expect(report).toContain('no new privileges');
  expect(report).toContain('`sudo` cannot work here: the sandbox runs verify commands and hooks as an unprivileged');
  expect(report).toContain(WHAT_TO_DO);
  expect(report).toContain('`isolation: off`');
});

it.each(PRIVILEGE_PATHS)(
  "says why a Docker client fails when the runner's daemon socket is not the call's, $how",
  async ({ asRunnerUser }) => {
    world = await createWorld();
    // The runner's Docker socket as on a hosted runner: srw-rw---- root docker. No daemon answers
    // here; the client never gets that far.
    const socket = path.join(world.dir, 'docker.sock');
    daemon = createServer((c) => c.end());
    await new Promise<void>((resolve) => daemon!.listen(socket, resolve));
    chmodSync(socket, 0o660);
    const r = await world.run({
      asRunnerUser,
      rules: PLANTED_BUG_RULES,
      extraEnv: { DOCKER_HOST: `unix://${socket}` },
      inputs: { verify: 'docker ps\nnpm test', 'verify-env': 'DOCKER_HOST' },
    });
    expect(r.outputs.status, r.stdout).toBe('failed');
    const report = world.github.comments(7).at(-1)!.body;
    expect(report).toContain('permission denied while trying to connect to the Docker daemon socket');
    expect(report).toContain('Docker cannot work here: the sandbox withholds the Docker daemon');
    expect(report).toContain(WHAT_TO_DO);
  },
);
