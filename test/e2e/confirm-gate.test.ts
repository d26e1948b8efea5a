// Confirmation (confirm input) and the gate reviewer (gate-reviewer input), end to end.
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

const FALSE_ALARM = {
  ...BUG_FINDING,
  line: 5,
  title: 'module.exports leaks internals',
  category: 'security',
  description: 'Not really a problem.',
};
const REGRESSION_TEST =
  "const assert = require('node:assert');\nconst { add } = require('./src/math.js');\nassert.strictEqual(add(1, 1), 2);\n";

it('fixes only findings confirmed by a failing test and ships that test in the fix commit', async () => {
  const r = await world.run({
    inputs: { confirm: 'P1', verify: 'npm test\nnode regression.test.js' },
    rules: [
      { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG_FINDING, FALSE_ALARM]) },
      { role: 'reviewer', answer: reviewerAnswer([]) },
      {
        role: 'confirm',
        findingTitle: 'subtracts',
        edits: { 'regression.test.js': REGRESSION_TEST },
        answer: {
          findingId: 'x',
          confirmed: true,
          testFile: 'regression.test.js',
          testCommand: 'node regression.test.js',
          explanation: 'add(1,1) is 0',
        },
      },
      {
        role: 'confirm',
        edits: { 'bogus.test.js': 'throw 1;\n' },
        answer: { findingId: 'y', confirmed: false, explanation: 'could not reproduce' },
      },
      { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH } },
    ],
  });
  expect(r.outputs.status, r.stdout).toBe('converged');
  const fixer = world.agentCalls().find((c) => c.role === 'fixer')!;
  expect(fixer).toBeDefined();
  const fix = (await world.headLog())[0]!;
  const files = await world.sandbox.originGit(['show', '--name-only', '--format=', fix.sha]);
  expect(files.stdout.split('\n').filter(Boolean).sort()).toEqual(['regression.test.js', 'src/math.js']);
  const fixReport = world.github.comments(7)[1]!.body;
  expect(fixReport).toContain('Not confirmed');
  expect(fixReport).toContain('could not reproduce');
  expect(fixReport).toContain('regression.test.js');
});

it('loops the fixer with the gate reviewer until it approves, then pushes', async () => {
  const r = await world.run({
    inputs: { 'gate-reviewer': 'command:gate-model', verify: 'npm test' },
    rules: [
      { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG_FINDING]) },
      { role: 'reviewer', answer: reviewerAnswer([]) },
      {
        role: 'gate',
        once: true,
        answer: { decision: 'request_changes', requestedChanges: ['also handle strings'], summary: '' },
      },
      { role: 'gate', answer: { decision: 'approve', requestedChanges: [], summary: 'ok' } },
      { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH } },
    ],
  });
  expect(r.outputs.status).toBe('converged');
  expect(world.agentCalls().filter((c) => c.role === 'fixer')).toHaveLength(2);
  expect(world.agentCalls().filter((c) => c.role === 'gate')).toHaveLength(2);
  const log = await world.headLog();
  expect(log[0]!.parents).toEqual([world.sandbox.headSha]);
});

it('blocks the round when the gate reviewer never approves, and pushes nothing', async () => {
  const r = await world.run({
    inputs: { 'gate-reviewer': 'command:gate-model', verify: 'npm test' },
    rules: [
      { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG_FINDING]) },
      { role: 'reviewer', answer: reviewerAnswer([]) },
      {
        role: 'gate',
        name: 'gate',
        round: 1,
        answer: { decision: 'request_changes', requestedChanges: ['add a comment'], summary: '' },
      },
      { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH } },
    ],
  });
  // Round 1's gate always asks for changes: after gate-max-loops (2) the round is blocked.
  expect(r.outputs.status).toBe('manual');
  expect(world.agentCalls().filter((c) => c.role === 'fixer')).toHaveLength(2);
  expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
  expect(world.github.comments(7)[1]!.body).toContain('add a comment');
});
