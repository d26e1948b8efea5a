// End to end: a fixer and a verify command that can write .git (isolation off:
// with the sandbox user they cannot write it at all, so this tests the next line of defence)
// try to push a workflow the guard never saw, hidden with `git replace`, and to run code inside
// the action's own git through a filter planted in .git/config in an earlier gate loop.
// The origin is inspected with replacements off, as the server sees it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createGit } from '../../../src/git/runner.js';
import { SAMPLE_PROJECT } from '../../fakes/git-sandbox.js';
import { createWorld, type World } from '../harness.js';
import { BUG_FINDING, FIXED_MATH, reviewerAnswer } from '../scenarios.js';

let world: World;
beforeEach(async () => {
  const baseFiles = { ...SAMPLE_PROJECT, '.github/workflows/ci.yml': 'on: push\njobs: {}\n' };
  world = await createWorld({ sandbox: { baseFiles } });
});
afterEach(async () => {
  await world.close();
});

const EVIL = '.github/workflows/evil.yml';
const review = [
  { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG_FINDING]) },
  { role: 'reviewer', answer: reviewerAnswer([]) },
];

/** Every path in every commit on origin, read with replace refs off (there should be none anyway). */
async function pathsOnOrigin(): Promise<string[]> {
  const git = createGit(world.sandbox.originDir, { env: { ...world.sandbox.env, GIT_NO_REPLACE_OBJECTS: '1' } });
  const out = await git(['-c', 'core.useReplaceRefs=false', 'log', '--all', '--format=', '--name-only']);
  return [...new Set(out.stdout.split('\n').filter(Boolean))].sort();
}

it('never pushes a workflow file a verify command hid from the guard with git replace', async () => {
  // The fixer adds the workflow; verify replaces the commit's .github/workflows tree with the
  // base's, so diff and ls-tree see no change there, then runs the tests as usual.
  const hide = 'git replace "$(git rev-parse HEAD:.github/workflows)" "$(git rev-parse HEAD~1:.github/workflows)"';
  const r = await world.run({
    rules: [...review, { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH, [EVIL]: 'on: push\n' } }],
    inputs: { isolation: 'off', verify: `${hide}\nnpm test` },
  });
  expect(await pathsOnOrigin()).not.toContain(EVIL);
  expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
  expect(r.outputs.status).toBe('failed');
  expect(world.github.comments(7).at(-1)!.body).toContain(EVIL);
});

it('still pushes a legitimate fix when verify plants replace refs, and the refs stay behind', async () => {
  // A harmless replacement (README's blob) that must neither block the push nor travel with it.
  const plant = 'git replace "$(git rev-parse HEAD:README.md)" "$(git rev-parse HEAD:package.json)"';
  const r = await world.run({
    rules: [...review, { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH } }],
    inputs: { isolation: 'off', verify: `${plant}\nnpm test` },
  });
  expect(r.outputs.status, r.stdout).toBe('converged');
  const fix = (await world.headLog())[0]!;
  expect(fix.parents).toEqual([world.sandbox.headSha]);
  const files = await world.sandbox.originGit(['show', '--name-only', '--format=', fix.sha]);
  expect(files.stdout.trim()).toBe('src/math.js');
  expect((await world.sandbox.originGit(['for-each-ref', 'refs/replace/'])).stdout).toBe('');
});

it('never runs a filter a verify command planted in .git/config during an earlier gate loop', async () => {
  const marker = path.join(world.dir, 'filter-ran');
  const plant = [
    `git config filter.spy.clean "echo clean >> '${marker}'; cat"`,
    `git config filter.spy.smudge "echo smudge >> '${marker}'; cat"`,
    "echo '* filter=spy' > .git/info/attributes",
  ];
  const r = await world.run({
    rules: [
      ...review,
      { role: 'gate', once: true, answer: { decision: 'request_changes', requestedChanges: ['more'], summary: '' } },
      { role: 'gate', answer: { decision: 'approve', requestedChanges: [], summary: 'ok' } },
      { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH } },
    ],
    inputs: { isolation: 'off', 'gate-reviewer': 'command:gate-model', verify: [...plant, 'npm test'].join('\n') },
  });
  expect(existsSync(marker) ? readFileSync(marker, 'utf8') : 'never ran').toBe('never ran');
  expect(world.agentCalls().filter((c) => c.role === 'fixer')).toHaveLength(2);
  // The product still does its job: the fix is pushed, carrying nothing but the fix.
  expect(r.outputs.status, r.stdout).toBe('converged');
  const fix = (await world.headLog())[0]!;
  expect(fix.parents).toEqual([world.sandbox.headSha]);
  const files = await world.sandbox.originGit(['show', '--name-only', '--format=', fix.sha]);
  expect(files.stdout.trim()).toBe('src/math.js');
  expect(r.stdout).toContain('restored it before pushing');
});
