import { describe, expect, it } from 'vitest';
import { groupFindings, normalizeFinding } from '../../src/review/findings.js';
import { fingerprint, fixedFingerprints, markStuck } from '../../src/review/stuck.js';
import { threadFindings } from '../../src/review/threads.js';
import { thread } from '../factories.js';

// Round N: the fixer reported this finding fixed.
const fixedInRound1 = normalizeFinding(
  {
    priority: 'P1',
    category: 'correctness',
    file: 'src/math.js',
    line: 2,
    title: 'add() subtracts instead of adding',
    description: '',
  },
  'reviewer-1',
);
const before = [fingerprint(fixedInRound1)];

describe('markStuck', () => {
  it('a fixed finding that reappears at a moved line is stuck', () => {
    const back = normalizeFinding({ ...fixedInRound1, line: 9, description: 'still wrong' }, 'reviewer-2');
    expect(back.id).not.toBe(fixedInRound1.id); // the line is part of the id
    const { active, stuck } = markStuck([back], before);
    expect(active).toEqual([]);
    expect(stuck).toEqual([{ ...back, stuck: true }]);
  });

  it('the same id is stuck', () => {
    const { stuck } = markStuck([{ ...fixedInRound1 }], before);
    expect(stuck.map((f) => f.id)).toEqual([fixedInRound1.id]);
  });

  it('follows a renamed file through the renames map', () => {
    const back = normalizeFinding({ ...fixedInRound1, file: 'src/arith.js', line: 3, description: '' }, 'reviewer-1');
    expect(markStuck([back], before).stuck).toHaveLength(0);
    const { stuck, active } = markStuck([back], before, new Map([['src/math.js', 'src/arith.js']]));
    expect(stuck.map((f) => f.file)).toEqual(['src/arith.js']);
    expect(active).toEqual([]);
  });

  it('a different problem in the same file is not stuck', () => {
    const other = normalizeFinding(
      {
        priority: 'P1',
        category: 'correctness',
        file: 'src/math.js',
        line: 2,
        title: 'divide() does not guard against zero',
        description: '',
      },
      'reviewer-1',
    );
    expect(markStuck([other], before)).toEqual({ active: [other], stuck: [] });
  });

  it('human thread findings are never stuck, even with a matching id', () => {
    const [t] = threadFindings([thread()], []);
    const { active, stuck } = markStuck([t!], [{ id: t!.id, category: t!.category, file: t!.file, title: t!.title }]);
    expect(stuck).toEqual([]);
    expect(active).toEqual([t]);
  });

  it('keeps the order of the findings it is given', () => {
    const a = normalizeFinding(
      { priority: 'P2', category: 'quality', file: 'src/a.js', line: 1, title: 'Long function', description: '' },
      'r',
    );
    const b = normalizeFinding(
      { priority: 'P2', category: 'quality', file: 'src/b.js', line: 1, title: 'Dead code branch', description: '' },
      'r',
    );
    expect(markStuck([b, a], []).active).toEqual([b, a]);
  });
});

describe('fixedFingerprints: a group fixed, reported again by a reviewer in its own words', () => {
  // Two reviewers' words for one bug (the negotiator run's, test/fixtures/real-model-runs); the group
  // shows reviewer-1's title, the more severe.
  const words = (title: string, priority: 'P1' | 'P2', line: number) => ({
    priority,
    category: 'correctness',
    file: 'lib/charset.js',
    line,
    title,
    description:
      'The inner `for (var i = 0; i < params.length; i++)` loop reassigns `i`, the parameter of parseCharset.',
  });
  const mine = 'Loop variable `var i` overwrites the `i` (header position) parameter of parseCharset';
  const theirs = 'Same `var i` shadowing in parseCharset breaks client-order tie-breaking';
  const [group] = groupFindings([
    normalizeFinding(words(mine, 'P1', 61), 'reviewer-1'),
    normalizeFinding(words(theirs, 'P2', 61), 'reviewer-2'),
  ]);

  it("recognises reviewer-2's own title, which the group's fingerprint alone misses", () => {
    expect(group!.title).toBe(mine);
    expect(group!.members?.map((m) => m.reviewer)).toEqual(['reviewer-1', 'reviewer-2']);
    const back = normalizeFinding({ ...words(theirs, 'P1', 64), description: 'still shadowed' }, 'reviewer-2');
    expect(markStuck([back], [fingerprint(group!)]).stuck).toEqual([]);
    expect(markStuck([back], fixedFingerprints(group!)).stuck.map((f) => f.title)).toEqual([theirs]);
  });

  it('keeps each member once, the group itself first', () => {
    expect(fixedFingerprints(group!).map((p) => p.title)).toEqual([mine, theirs]);
    expect(fixedFingerprints(fixedInRound1)).toEqual([fingerprint(fixedInRound1)]);
  });
});
