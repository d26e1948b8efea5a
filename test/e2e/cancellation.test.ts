// A run the runner cancels (a newer push with cancel-in-progress, or a person): the runner sends
// SIGINT, then SIGTERM. The action stops its agents, starts nothing new, never leaves a push half
// done, says it was cancelled, and leaves the branch as the next run expects.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWorld, type World } from './harness.js';
import { PLANTED_BUG_RULES, reviewerAnswer } from './scenarios.js';

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.close();
});

const until = async (ok: () => boolean): Promise<void> => {
  while (!ok()) await new Promise((r) => setTimeout(r, 25));
};
const userExists = (name: string): boolean => {
  try {
    execFileSync('getent', ['passwd', name]);
    return true;
  } catch {
    return false;
  }
};

it('stops a round mid-review: the agents are stopped, nothing is posted or pushed, and the run says so', async () => {
  const headBefore = (await world.headLog())[0]!.sha;
  const r = await world.run({
    rules: [{ role: 'reviewer', sleepMs: 150_000, answer: reviewerAnswer([]) }],
    interrupt: async (signal) => {
      await world.waitForAgentCall((c) => c.role === 'reviewer', 60_000);
      signal('SIGINT');
    },
  });
  expect(r.outputs.status, r.stdout).toBe('cancelled');
  expect(r.stdout).toContain('cancelled: stopping the agents');
  // No report comment (the round never ended), so the word is in the job summary.
  expect(world.github.comments(7)).toEqual([]);
  expect(r.summary).toContain('pr-review-loop: cancelled');
  expect((await world.headLog())[0]!.sha).toBe(headBefore);
  // The sandbox user, and with it the sleeping reviewer, is gone.
  const user = /run as the unprivileged user (prl-[0-9a-f]+)/.exec(r.stdout)?.[1];
  expect(user, r.stdout).toBeDefined();
  expect(userExists(user!), `${user} still exists`).toBe(false);
});

it('lets a push under way finish, reports its commit, and the next run knows it for its own', async () => {
  // The origin holds the push in its pre-receive hook until the test lets it go.
  const started = path.join(world.dir, 'push-started');
  const release = path.join(world.dir, 'push-release');
  const hook = path.join(world.sandbox.originDir, 'hooks', 'pre-receive');
  writeFileSync(
    hook,
    `#!/bin/sh\ntouch '${started}'\nwhile [ ! -f '${release}' ]; do sleep 0.05; done\ncat >/dev/null\n`,
  );
  chmodSync(hook, 0o755);
  const r = await world.run({
    inputs: { verify: 'npm test' },
    rules: PLANTED_BUG_RULES,
    interrupt: async (signal) => {
      await until(() => existsSync(started));
      signal('SIGINT');
      // The second signal the runner sends changes nothing either.
      signal('SIGTERM');
      writeFileSync(release, '');
    },
  });
  expect(r.outputs.status, r.stdout).toBe('cancelled');
  const [head] = await world.headLog();
  expect(head!.body).toContain('Review-Loop-Round: 1');
  // No second round started after the cancel.
  expect(world.agentCalls().map((c) => c.role)).toEqual(['reviewer', 'fixer']);
  // The review, the fix report of the landed commit, and the cancelled report naming it.
  const bodies = world.github.comments(7).map((c) => c.body);
  expect(bodies).toHaveLength(3);
  expect(bodies[1]).toContain(head!.sha.slice(0, 7));
  expect(bodies[2]).toContain('pr-review-loop was cancelled');
  expect(bodies[2]).toContain(`The fix commit ${head!.sha.slice(0, 7)} was pushed before the cancel.`);
  // The run its push starts sees its own fix commit and skips.
  const next = await world.run({ action: 'synchronize', rules: PLANTED_BUG_RULES });
  expect(next.outputs.status, next.stdout).toBe('skipped');
  expect(next.stdout).toContain("is this action's own fix commit");
});
