// What the push carries is exactly the commit that was verified, checked and gated: verify
// commands (which run the PR's code) cannot smuggle a workflow change past the guard,
// move HEAD, or redirect the push through the checkout's git config.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWorld, type World } from './harness.js';
import { BUG_FINDING, FIXED_MATH, reviewerAnswer } from './scenarios.js';

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.close();
});

const review = [
  { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG_FINDING]) },
  { role: 'reviewer', answer: reviewerAnswer([]) },
];

it('refuses a fix that adds a workflow file even when a verify command deletes it from disk', async () => {
  const r = await world.run({
    rules: [
      ...review,
      { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH, '.github/workflows/evil.yml': 'on: push\n' } },
    ],
    inputs: { verify: 'rm -f .github/workflows/evil.yml\nnpm test' },
  });
  expect(r.outputs.status).toBe('failed');
  expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
  expect(world.github.comments(7).at(-1)!.body).toContain('.github/workflows/evil.yml');
});

it('refuses to push when a verify command moves HEAD after the fix commit', async () => {
  const r = await world.run({
    rules: [...review, { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH } }],
    // isolation off: the sandbox user cannot write .git at all; this tests the second line of defence.
    inputs: {
      isolation: 'off',
      verify: 'npm test\ngit -c user.name=x -c user.email=x@x commit -q --allow-empty -m sneaky',
    },
  });
  expect(r.outputs.status).toBe('failed');
  expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
  expect(world.github.comments(7).at(-1)!.body).toMatch(/HEAD moved/);
});

it('undoes a verify command that points the push somewhere else through .git/config', async () => {
  const elsewhere = path.join(world.dir, 'elsewhere.git');
  const r = await world.run({
    rules: [...review, { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH } }],
    // isolation off: the sandbox user cannot write .git/config at all; this tests the second line of defence.
    inputs: {
      isolation: 'off',
      verify: `npm test\ngit init -q --bare ${elsewhere}\ngit config remote.origin.pushurl ${elsewhere}`,
    },
  });
  expect(r.outputs.status, r.stdout).toBe('converged');
  const fix = (await world.headLog())[0]!;
  expect(fix.parents).toEqual([world.sandbox.headSha]);
  expect(r.stdout).toContain('restored it before pushing');
  // Nothing reached the other repository.
  expect(existsSync(path.join(elsewhere, 'refs/heads', world.sandbox.headRef))).toBe(false);
});
