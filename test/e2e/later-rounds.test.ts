// Later rounds check the fixes and the delta (docs/how-a-run-goes.md), end to end with the real bundle:
// a round-2 reviewer gets the round-1 findings with their fate and the change since round 1.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWorld, type World } from './harness.js';
import { BUG_FINDING, DOC_FINDING, FIXED_MATH, reviewerAnswer } from './scenarios.js';

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.close();
});

it("gives round 2's reviewers the last round's findings with their fate, and the delta since its head", async () => {
  const r = await world.run({
    inputs: { verify: 'npm test', reviewers: 'command:scripted-model\ncommand:other-model' },
    rules: [
      { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG_FINDING, DOC_FINDING]) },
      { role: 'reviewer', answer: reviewerAnswer([]) },
      {
        role: 'fixer',
        fixAll: true,
        edits: { 'src/math.js': FIXED_MATH },
        rejectTitles: { README: 'The README is generated from the JSDoc; documenting it there would be overwritten.' },
      },
    ],
  });
  expect(r.outputs.status, r.stdout).toBe('converged');
  const reviewers = world.agentCalls().filter((c) => c.role === 'reviewer' && c.name === 'reviewer-1');
  const [first, second] = reviewers;
  const otherInRound2 = world.agentCalls().find((c) => c.name === 'reviewer-2' && c.round === 2)!;
  const fixSha = (await world.headLog())[0]!.sha;

  // Round 1 has nothing earlier.
  expect(existsSync(path.join(first!.contextDir, 'earlier-findings.json'))).toBe(false);
  expect(first!.prompt).not.toContain('A later round');

  const read = (name: string) => readFileSync(path.join(second!.contextDir, name), 'utf8');
  const earlier = JSON.parse(read('earlier-findings.json')) as {
    title: string;
    fate: string;
    fixedIn?: string;
    reason?: string;
  }[];
  expect(earlier.map((f) => [f.title, f.fate])).toEqual([
    [BUG_FINDING.title, 'fixed'],
    [DOC_FINDING.title, 'rejected'],
  ]);
  expect(earlier[0]!.fixedIn).toBe(fixSha);
  expect(earlier[1]!.reason).toBe('The README is generated from the JSDoc; documenting it there would be overwritten.');
  // The change since round 1's head: the fix commit, and nothing of the PR before it.
  expect(read('delta.patch')).toContain('-  return a - b;\n+  return a + b;');
  expect(read('delta.patch')).not.toContain('README');
  const commits = JSON.parse(read('delta-commits.json')) as { sha: string; subject: string }[];
  expect(commits.map((c) => c.sha)).toEqual([fixSha]);
  // The prompt says to check the fixes first and to leave a rejected finding alone unless disagreeing.
  expect(second!.prompt).toContain(`This PR was reviewed before, at head ${world.sandbox.headSha.slice(0, 7)}`);
  expect(second!.prompt).toContain('Disagree with the rejection:');
  // Each finding with the words a fix is checked against.
  const words = JSON.parse(read('earlier-findings.json')) as { description: string; suggestion: string | null }[];
  expect(words[0]).toMatchObject({ description: BUG_FINDING.description, suggestion: BUG_FINDING.suggestion });
  // The files are short: by the rule the prompt states, their text is in the prompt too, the patch byte-exact.
  expect(second!.prompt).toContain('In the context folder only: (none).');
  expect(second!.prompt).toContain(read('delta.patch'));
  expect(second!.prompt).toContain('The README is generated from the JSDoc');
  // The reviewers of a round read one context folder and the same prompt up to each one's own
  // part: a provider's prompt cache can serve them all. Both reported the finding in the words and
  // place earlier-findings.json gives it, so neither gets a list of its own words repeating that.
  expect(otherInRound2.contextDir).toBe(second!.contextDir);
  expect(second!.prompt).not.toContain('## Your findings of the last review');
  // The shared part ends with the later-round rules; the marker must be there, or the slice is the whole prompt.
  const shared = (prompt: string) => prompt.slice(0, prompt.indexOf('other finding is new.'));
  expect(second!.prompt.indexOf('other finding is new.')).toBeGreaterThan(1000);
  expect(shared(otherInRound2.prompt)).toBe(shared(second!.prompt));
  expect(shared(second!.prompt)).not.toContain('reviewer-1');
});

it('tells the next run, after a human push, what its last review found and the change since that head', async () => {
  const first = await world.run({
    inputs: { verify: 'npm test', 'max-rounds': '1' },
    rules: [
      { role: 'reviewer', answer: reviewerAnswer([BUG_FINDING, DOC_FINDING]) },
      { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH }, rejectTitles: { README: 'generated' } },
    ],
  });
  expect(first.outputs.status, first.stdout).toBe('max-rounds');
  const fixSha = first.outputs['head-sha']!;
  const human = await world.sandbox.pushFromAnotherClone(
    { 'CHANGELOG.md': 'A human note.\n' },
    { message: 'Add a changelog' },
  );

  const second = await world.run({ rules: [{ role: 'reviewer', answer: reviewerAnswer([]) }], action: 'synchronize' });
  expect(second.outputs.status, second.stdout).toBe('converged');
  const call = world
    .agentCalls()
    .filter((c) => c.role === 'reviewer')
    .at(-1)!;
  const read = (name: string) => readFileSync(path.join(call.contextDir, name), 'utf8');
  const earlier = JSON.parse(read('earlier-findings.json')) as {
    title: string;
    fate: string;
    fixedIn?: string;
    reason?: string;
  }[];
  expect(earlier.map((f) => [f.title, f.fate, f.fixedIn ?? f.reason ?? null])).toEqual([
    [BUG_FINDING.title, 'fixed', fixSha],
    [DOC_FINDING.title, 'rejected', 'generated'],
  ]);
  // Since the head the first run reviewed: its fix and the human's commit.
  const commits = JSON.parse(read('delta-commits.json')) as { sha: string; subject: string }[];
  expect(commits.map((c) => c.sha)).toEqual([human, fixSha]);
  expect(read('delta.patch')).toContain('+A human note.');
  expect(call.prompt).toContain(`This PR was reviewed before, at head ${world.sandbox.headSha.slice(0, 7)}`);
});
