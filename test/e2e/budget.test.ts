// A hard budget for the whole run (docs/budgets.md): max-tokens and max-cost-usd, end to end with the
// real bundle. The scripted agents say what each call spent through $REVIEW_LOOP_USAGE_FILE.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Spending } from '../../src/budget/budget.js';
import { createWorld, type World } from './harness.js';
import { BUG_FINDING, DOC_FINDING, FIXED_MATH, reviewerAnswer } from './scenarios.js';

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.close();
});

const FIXED_DOC = '# demo\n\nadd(a, b) returns the sum.\n';

it('ends with status budget when the limit is reached in round 2: no call starts past it', async () => {
  const r = await world.run({
    inputs: { 'max-tokens': '1200', 'max-rounds': '3', verify: 'npm test' },
    rules: [
      {
        role: 'reviewer',
        round: 1,
        answer: reviewerAnswer([BUG_FINDING]),
        usage: { inputTokens: 350, outputTokens: 50 },
      },
      {
        role: 'fixer',
        round: 1,
        fixAll: true,
        edits: { 'src/math.js': FIXED_MATH },
        usage: { inputTokens: 250, outputTokens: 50 },
      },
      // Round 2 starts with 700 spent (a reviewer is expected to cost 400) and ends its review at
      // 1,100: the fixer, expected to cost 300, must not start with 100 left.
      {
        role: 'reviewer',
        round: 2,
        answer: reviewerAnswer([DOC_FINDING]),
        usage: { inputTokens: 350, outputTokens: 50 },
      },
      { role: 'fixer', fixAll: true, edits: { 'README.md': FIXED_DOC } },
    ],
  });
  expect(r.outputs.status, r.stdout).toBe('budget');
  expect(r.code).toBe(0);
  expect(world.agentCalls().map((c) => `${c.role} ${c.round}`)).toEqual(['reviewer 1', 'fixer 1', 'reviewer 2']);
  expect(r.outputs.tokens).toBe('1100');
  expect(r.outputs.rounds).toBe('2');
  expect(r.outputs.fixed).toBe('1');
  // Round 1's reports, round 2's review, and its fix report as the last word.
  const bodies = world.github.comments(7).map((c) => c.body);
  expect(bodies).toHaveLength(4);
  expect(bodies[3]).toContain('Budget spent');
  expect(bodies[3]).toContain(
    'the budget would not cover a fixer call: 300 tokens each expected (the average so far), 100 left of max-tokens 1200',
  );
  // One fix was pushed (round 1), none after the limit.
  expect((await world.headLog())[0]!.parents).toEqual([world.sandbox.headSha]);
  expect(r.summary).toContain('Spending');
  expect(r.summary).toContain('max-tokens 1,200');
  const { spending } = r.report as { spending: Spending };
  expect(spending.total).toEqual({ tokens: 1100, costUsd: 0, calls: 3 });
  expect(Object.keys(spending.byRound)).toEqual(['1', '2']);
  expect(spending.byRole.fixer).toEqual({ tokens: 300, costUsd: 0, calls: 1 });
});

it('does not start a round its reviewers are not expected to fit in: what reviewers spent so far', async () => {
  const r = await world.run({
    inputs: { 'max-tokens': '1000', 'max-rounds': '3', verify: 'npm test' },
    rules: [
      {
        role: 'reviewer',
        round: 1,
        answer: reviewerAnswer([BUG_FINDING]),
        usage: { inputTokens: 350, outputTokens: 50 },
      },
      {
        role: 'fixer',
        round: 1,
        fixAll: true,
        edits: { 'src/math.js': FIXED_MATH },
        usage: { inputTokens: 250, outputTokens: 50 },
      },
      { role: 'reviewer', answer: reviewerAnswer([]) },
    ],
  });
  expect(r.outputs.status, r.stdout).toBe('budget');
  // 700 spent, 300 left: a reviewer call has cost 400.
  expect(world.agentCalls().map((c) => `${c.role} ${c.round}`)).toEqual(['reviewer 1', 'fixer 1']);
  expect(r.outputs.tokens).toBe('700');
  const last = world.github.comments(7).at(-1)!.body;
  expect(last).toContain(
    'The budget would not cover a reviewer call: 400 tokens each expected (the average so far), 300 left of max-tokens 1000. ' +
      'The fix of round 1 was pushed; round 2 was not started.',
  );
});

it('prices tokens with model-prices and stops after the pushed fix that reached max-cost-usd', async () => {
  const r = await world.run({
    inputs: {
      'max-cost-usd': '0.01',
      // $5 per million input tokens, $20 per million output tokens.
      'model-prices': 'scripted-model:\n  input: 5\n  output: 20',
      verify: 'npm test',
    },
    rules: [
      {
        role: 'reviewer',
        round: 1,
        answer: reviewerAnswer([BUG_FINDING]),
        usage: { inputTokens: 800, outputTokens: 50 },
      },
      {
        role: 'fixer',
        fixAll: true,
        edits: { 'src/math.js': FIXED_MATH },
        usage: { inputTokens: 800, outputTokens: 50 },
      },
      { role: 'reviewer', answer: reviewerAnswer([]) },
    ],
  });
  expect(r.outputs.status, r.stdout).toBe('budget');
  // Each call: 800 × $5/M + 50 × $20/M = $0.005; two calls reach $0.01, so round 2 never starts.
  expect(r.outputs['cost-usd']).toBe('0.0100');
  expect(world.agentCalls().map((c) => `${c.role} ${c.round}`)).toEqual(['reviewer 1', 'fixer 1']);
  const last = world.github.comments(7).at(-1)!.body;
  expect(last).toContain('The fix of round 1 was pushed; round 2 was not started.');
  expect(r.outputs.fixed).toBe('1');
});

it('refuses max-cost-usd for a model without a price before any request or agent', async () => {
  const r = await world.run({
    inputs: { reviewers: 'command:unpriced-model', 'max-cost-usd': '1' },
    rules: [{ role: 'reviewer', answer: reviewerAnswer([]) }],
  });
  expect(r.code).toBe(1);
  expect(r.outputs.status).toBe('failed');
  expect(r.stdout).toContain('needs a price for model "unpriced-model"');
  expect(r.stdout).toContain('model-prices');
  expect(world.github.requests).toHaveLength(0);
  expect(world.agentCalls()).toHaveLength(0);
});
