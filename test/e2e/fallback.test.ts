// Fallback models end to end: a reviewer and the fixer whose model is rate-limited or overloaded
// (the words Claude Code prints for a 429 and a 529) are answered by their fallbacks, and the
// report names the model that answered and why; a fallback another reviewer runs is skipped; a
// fixer with no fallback left fails the run with the reason named.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorld, type World } from './harness.js';
import { BUG_FINDING, FIXED_MATH, reviewerAnswer } from './scenarios.js';

const RATE_LIMITED = 'API Error: Request rejected (429) · Rate limited\n';
const OVERLOADED = 'API Error: 529 Overloaded. This is a server-side issue, usually temporary\n';

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.close();
});

describe('fallback models', () => {
  it('asks the next model when a reviewer is rate-limited and the fixer overloaded, and says so', async () => {
    const rules = [
      { role: 'fixer', model: 'model-a', exitCode: 1, stderr: OVERLOADED },
      { model: 'model-a', exitCode: 1, stderr: RATE_LIMITED },
      { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG_FINDING]) },
      { role: 'reviewer', answer: reviewerAnswer([]) },
      { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH } },
    ];
    const inputs = {
      reviewers: 'command:model-a || command:model-c\ncommand:model-b',
      fixer: 'command:model-a || command:model-c',
      verify: 'npm test',
    };
    const r = await world.run({ rules, inputs });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.status).toBe('converged');
    const calls = world.agentCalls().map((c) => `${c.round} ${c.name} ${c.model}`);
    // Each round asks the role's own model first, then its fallback.
    expect(calls).toEqual(
      expect.arrayContaining([
        '1 reviewer-1 model-a',
        '1 reviewer-1 model-c',
        '1 reviewer-2 model-b',
        '1 fixer model-a',
        '1 fixer model-c',
        '2 reviewer-1 model-a',
        '2 reviewer-1 model-c',
      ]),
    );
    const [review, fix] = world.github.comments(7).map((c) => c.body);
    const reviewerRow = review!.split('\n').find((l) => l.startsWith('| reviewer-1 '))!;
    expect(reviewerRow).toContain('`model-c`');
    expect(reviewerRow).toMatch(/fallback, asked after `command:model-a`: rate limit \(.*Request rejected \(429\)/);
    const fixerRow = fix!.split('\n').find((l) => l.startsWith('| fixer '))!;
    expect(fixerRow).toContain('`model-c`');
    expect(fixerRow).toMatch(/fallback, asked after `command:model-a`: overloaded \(API Error: 529 Overloaded/);
    expect(r.stdout).toContain('reviewer-1: command:model-a failed (rate limit); asking command:model-c');
  });

  it('skips a fallback on the panel; a fixer with no fallback left fails the run naming the reason', async () => {
    const rules = [
      { model: 'model-a', exitCode: 1, stderr: RATE_LIMITED },
      { role: 'reviewer', answer: reviewerAnswer([BUG_FINDING]) },
    ];
    const inputs = { reviewers: 'command:model-a || command:model-b\ncommand:model-b', fixer: 'command:model-a' };
    const r = await world.run({ rules, inputs });
    const calls = world.agentCalls().map((c) => `${c.name} ${c.model}`);
    expect(calls).not.toContain('reviewer-1 model-b');
    expect(r.stdout).toContain('reviewer-1: fallback command:model-b skipped: reviewer-2 already reviews with it');
    expect(r.outputs.status).toBe('failed');
    const last = world.github.comments(7).at(-1)!.body;
    expect(last).toMatch(/command:model-a: rate limit; no fallback left/);
  });
});
