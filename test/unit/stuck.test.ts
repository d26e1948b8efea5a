import { describe, expect, it } from 'vitest';
import { normalizeFinding } from '../../src/review/findings.js';
import { fingerprint, markStuck } from '../../src/review/stuck.js';
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
