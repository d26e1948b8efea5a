import { describe, expect, it } from 'vitest';
import { filterDiff, globToRegExp, makePathMatcher } from '../../src/github/path-filter.js';

describe('globToRegExp', () => {
  it('matches like .gitignore-style globs', () => {
    expect(globToRegExp('*.md').test('docs/guide.md')).toBe(true);
    expect(globToRegExp('*.md').test('README.md')).toBe(true);
    expect(globToRegExp('docs/**').test('docs/a/b.txt')).toBe(true);
    expect(globToRegExp('docs/**').test('src/docs/a.txt')).toBe(false);
    expect(globToRegExp('src/*.ts').test('src/a/b.ts')).toBe(false);
    expect(globToRegExp('src/**/*.ts').test('src/a/b.ts')).toBe(true);
    expect(globToRegExp('src/**/*.ts').test('src/b.ts')).toBe(true);
    expect(globToRegExp('file?.js').test('file1.js')).toBe(true);
    expect(globToRegExp('a.b').test('axb')).toBe(false);
  });
});

describe('makePathMatcher and filterDiff', () => {
  const diff = [
    'diff --git a/README.md b/README.md',
    '--- a/README.md',
    '+++ b/README.md',
    '@@ -1 +1 @@',
    '-old',
    '+new',
    'diff --git a/src/math.js b/src/math.js',
    '--- a/src/math.js',
    '+++ b/src/math.js',
    '@@ -1 +1 @@',
    '-a + b',
    '+a - b',
    '',
  ].join('\n');

  it('keeps included files and drops excluded ones', () => {
    const keep = makePathMatcher({ include: [], exclude: ['*.md'] });
    expect(keep('README.md')).toBe(false);
    expect(keep('src/math.js')).toBe(true);
    const out = filterDiff(diff, keep);
    expect(out).not.toContain('README.md');
    expect(out).toContain('diff --git a/src/math.js b/src/math.js');
    expect(out).toContain('+a - b');
  });

  it('with include globs keeps only what they match', () => {
    const keep = makePathMatcher({ include: ['src/**'], exclude: ['src/vendor/**'] });
    expect(keep('src/math.js')).toBe(true);
    expect(keep('src/vendor/x.js')).toBe(false);
    expect(keep('test.js')).toBe(false);
  });
});
