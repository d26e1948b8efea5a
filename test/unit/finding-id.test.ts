import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { categoryCode, findingId, threadFindingId } from '../../src/review/finding-id.js';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

describe('findingId', () => {
  const f = { category: 'correctness', file: 'src/math.js', line: 2, title: 'add() subtracts instead of adding' };

  it('is CAT-<first 8 hex of sha1(category|file|line|title)>', () => {
    const hex = sha1('correctness|src/math.js|2|add() subtracts instead of adding').slice(0, 8);
    expect(findingId(f)).toBe(`BUG-${hex}`);
    expect(findingId(f)).toMatch(/^[A-Z]+-[0-9a-f]{8}$/);
  });

  it('is stable: the same finding gives the same id every time', () => {
    expect(findingId({ ...f })).toBe(findingId(f));
  });

  it('changes when any of category, file, line or title changes', () => {
    const ids = new Set([
      findingId(f),
      findingId({ ...f, category: 'bug' }),
      findingId({ ...f, file: 'src/math.ts' }),
      findingId({ ...f, line: 3 }),
      findingId({ ...f, title: 'add() subtracts' }),
    ]);
    expect(ids.size).toBe(5);
  });

  it('writes a null line and a null file as empty strings', () => {
    const hex = sha1('security|||secrets in logs').slice(0, 8);
    expect(findingId({ category: 'security', file: null, line: null, title: 'secrets in logs' })).toBe(`SEC-${hex}`);
    const noLine = sha1('docs|README.md||Typo in title').slice(0, 8);
    expect(findingId({ category: 'docs', file: 'README.md', line: null, title: 'Typo in title' })).toBe(
      `DOCS-${noLine}`,
    );
  });
});

describe('categoryCode', () => {
  it('maps known categories and derives a code for others', () => {
    expect(categoryCode('Security')).toBe('SEC');
    expect(categoryCode(' performance ')).toBe('PERF');
    expect(categoryCode('correctness')).toBe('BUG');
    expect(categoryCode('accessibility')).toBe('ACCES');
    expect(categoryCode('???')).toBe('OTHER');
  });
});

describe('threadFindingId', () => {
  it('is THREAD-<first comment id>', () => {
    expect(threadFindingId(2468013579)).toBe('THREAD-2468013579');
    expect(threadFindingId('1001')).toBe('THREAD-1001');
  });
});
