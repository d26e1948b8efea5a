// The fixer's contract as a real model needs it: an issue it does not do and does not
// think wrong (an optional one left for later, a duplicate of another) has a place of its own,
// `deferredIssues`, counted apart from fixed and rejected and still open; the prompt says the
// action makes the commit and, without `setup`, installed nothing.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWorld, type World } from './harness.js';
import { BUG_FINDING, FIXED_MATH, finding, reviewerAnswer } from './scenarios.js';

const STYLE = finding({
  priority: 'P3',
  category: 'docs',
  line: 1,
  title: 'add() has no JSDoc',
  description: 'Say what it returns.',
});
const LATER = 'An optional docs change, left for a PR of its own.';

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.close();
});

it('takes a deferred issue as accounted for, reports it apart, and keeps it open', async () => {
  const r = await world.run({
    inputs: { verify: 'npm test' },
    rules: [
      { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG_FINDING, STYLE]) },
      { role: 'reviewer', answer: reviewerAnswer([]) },
      { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH }, deferTitles: { JSDoc: LATER } },
    ],
  });
  expect(r.outputs.status, r.stdout).toBe('converged');
  const fixReport = world.github
    .comments(7)
    .map((c) => c.body)
    .find((b) => b.includes('### Fixed'))!;
  expect(fixReport).toContain('### Fixed (1)');
  expect(fixReport).toContain('### Deferred (still open) (1)');
  expect(fixReport).toContain(LATER);
  expect(fixReport).not.toContain('### Rejected');
  // What the fixer was told about the commit, the dependencies and its answer.
  const fixer = world.agentCalls().find((c) => c.role === 'fixer')!;
  expect(fixer.prompt).toContain('The action makes the commit');
  expect(fixer.prompt).toContain('The action installed nothing before your call (the repository sets no `setup`');
  expect(fixer.prompt).toContain('"deferredIssues"');
  // Round 2's reviewer sees it still open (neither fixed nor rejected).
  const later = world.agentCalls().find((c) => c.role === 'reviewer' && c.round === 2)!;
  const earlier = later.prompt.slice(later.prompt.indexOf('earlier-findings.json'));
  expect(earlier).toMatch(
    /"title":"add\(\) has no JSDoc"[^}]*"fate":"open"|"fate":"open"[^}]*"title":"add\(\) has no JSDoc"/,
  );
});
