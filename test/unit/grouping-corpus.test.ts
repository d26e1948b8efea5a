// Grouping against real models' words: every pair of two reviewers' findings in the recorded runs
// (test/fixtures/real-model-runs), labelled by a person as the same problem or not. The same bug in
// one parser, reported by both reviewers, is one problem; anything else is not (the two "no tests"
// findings sit in different files, and merging those is not required).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RawFinding } from '../../src/agents/envelope.js';
import { groupFindings, normalizeFinding } from '../../src/review/findings.js';

const RUNS = ['negotiator', 'negotiator-confirm'];
const answer = (run: string, name: string): RawFinding[] => {
  const file = new URL(`../fixtures/real-model-runs/${run}/round-1/${name}.answer.txt`, import.meta.url);
  const text = readFileSync(file, 'utf8');
  return JSON.parse(text.split('BEGIN_JSON')[1]!.split('END_JSON')[0]!).findings;
};
/** The person's label: the same problem when both are the P1 shadowing bug of one parser. */
const sameProblem = (a: RawFinding, b: RawFinding) => a.priority === 'P1' && b.priority === 'P1' && a.file === b.file;

describe.each(RUNS)('the recorded run %s', (run) => {
  const one = answer(run, 'reviewer-1').map((f) => normalizeFinding(f, 'reviewer-1'));
  const two = answer(run, 'reviewer-2').map((f) => normalizeFinding(f, 'reviewer-2'));
  const groups = groupFindings([...one, ...two]);
  const groupOf = (id: string) => groups.findIndex((g) => g.id === id || (g.aliases ?? []).includes(id));

  it('merges every pair a person calls one problem, and no other', () => {
    let falseMerges = 0;
    let missedMerges = 0;
    for (const a of one) {
      for (const b of two) {
        const merged = groupOf(a.id) === groupOf(b.id);
        if (merged && !sameProblem(a, b)) falseMerges++;
        if (!merged && sameProblem(a, b)) missedMerges++;
      }
    }
    expect({ falseMerges, missedMerges }).toEqual({ falseMerges: 0, missedMerges: 0 });
  });

  it('shows three P1 findings, each from both reviewers', () => {
    expect([one.length + two.length, groups.length]).toEqual([9, 6]);
    const p1 = groups.filter((g) => g.priority === 'P1');
    expect(p1.map((g) => [g.file, g.reportedBy.length]).sort()).toEqual([
      ['lib/charset.js', 2],
      ['lib/encoding.js', 2],
      ['lib/language.js', 2],
    ]);
  });
});
