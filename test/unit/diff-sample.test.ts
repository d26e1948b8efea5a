// Fitting the diff into the budget (src/git/diff-sample.ts): review order, the candidates
// worth asking git for, and the sampled diff with its "large-diff sampled" note.
import { describe, expect, it } from 'vitest';
import { fitDiff, isGeneratedPath, patchCandidates, reviewOrder } from '../../src/git/diff-sample.js';
import type { PrFile } from '../../src/domain/pull-request.js';

const file = (filename: string, additions: number, over: Partial<PrFile> = {}): PrFile => ({
  filename,
  status: 'modified',
  additions,
  deletions: 0,
  ...over,
});

/** A patch of the file with `n` added lines and the usual four header lines. */
function patch(f: PrFile): string {
  const body = Array.from({ length: f.additions }, (_v, i) => `+line ${i}`).join('\n');
  const name = f.filename;
  return `diff --git a/${name} b/${name}\nindex 1..2 100644\n--- a/${name}\n+++ b/${name}\n${body}\n`;
}
const patchesOf = (files: PrFile[]) => new Map(files.map((f) => [f.filename, patch(f)]));
const shown = (diff: string) =>
  diff
    .split('\n')
    .filter((l) => l.startsWith('diff --git '))
    .map((l) => l.split(' b/')[1]);

describe('reviewOrder', () => {
  it('puts thread files first, generated, lock and binary files last, smallest change first within each', () => {
    const files = [
      file('package-lock.json', 1),
      file('src/big.ts', 500),
      file('src/small.ts', 2),
      file('dist/index.js', 3),
      file('assets/logo.png', 0, { binary: true }),
      file('src/asked.ts', 900),
      file('docs/new.md', 2, { previousFilename: 'docs/old.md' }),
    ];
    const order = reviewOrder(files, new Set(['src/asked.ts', 'docs/old.md']));
    expect(order.map((f) => f.filename)).toEqual([
      'docs/new.md',
      'src/asked.ts',
      'src/small.ts',
      'src/big.ts',
      'assets/logo.png',
      'package-lock.json',
      'dist/index.js',
    ]);
  });

  it('knows the usual generated and lock files, and leaves ordinary sources alone', () => {
    const generated = [
      'yarn.lock',
      'web/pnpm-lock.yaml',
      'go.sum',
      'app.min.js',
      'api/v1/x.pb.go',
      'vendor/a/b.go',
      'a/__snapshots__/b.snap',
    ];
    for (const p of generated) expect(isGeneratedPath(p), p).toBe(true);
    for (const p of ['src/lock.ts', 'src/build.ts', 'distribution/a.ts', 'README.md']) {
      expect(isGeneratedPath(p), p).toBe(false);
    }
  });
});

describe('patchCandidates', () => {
  it('takes every file that could still fit, plus the first that cannot (for its start)', () => {
    const order = [file('a', 10), file('b', 80), file('c', 10), file('d', 500), file('e', 5)];
    // Budget 40: a (14) fits, b (84) does not and is the overflow, c (14) fits, d does not, e (9) fits.
    const picked = patchCandidates(order, { maxLines: 40, maxChars: 1e6 });
    expect(picked.map((f) => f.filename)).toEqual(['a', 'b', 'c', 'e']);
  });

  it('asks for at most the budget whatever the size of the PR', () => {
    const order = Array.from({ length: 3000 }, (_v, i) => file(`f${i}`, 1));
    expect(patchCandidates(order, { maxLines: 4000, maxChars: 200_000 })).toHaveLength(800 + 1);
  });
});

describe('fitDiff', () => {
  it('keeps a diff that fits as it is, in git order, with no note', () => {
    const files = [file('b.ts', 3), file('a.ts', 1)];
    const patches = patchesOf(files);
    const r = fitDiff(files, reviewOrder(files, new Set()), patches, { maxLines: 14, maxChars: 10_000 });
    const shares = new Map([
      ['b.ts', 'full'],
      ['a.ts', 'full'],
    ]);
    expect(r).toEqual({ diff: patch(files[0]!) + patch(files[1]!), sampled: false, shares });
  });

  it('samples whole files in review order within both budgets, then the start of the first left out', () => {
    const files = [
      file('z-asked.ts', 30),
      file('big.ts', 60),
      file('small.ts', 2),
      file('yarn.lock', 1),
      file('mid.ts', 10),
    ];
    const order = reviewOrder(files, new Set(['z-asked.ts']));
    const r = fitDiff(files, order, patchesOf(files), { maxLines: 80, maxChars: 10_000 });
    expect(r.sampled).toBe(true);
    // Patches are 4 lines longer than the change: z-asked (34), small (6), mid (14) and yarn.lock (5)
    // fit 80 lines; big (64) does not, and its first 21 lines fill what is left.
    expect(shown(r.diff)).toEqual(['z-asked.ts', 'small.ts', 'mid.ts', 'yarn.lock', 'big.ts']);
    expect(Object.fromEntries(r.shares)).toEqual({
      'z-asked.ts': 'full',
      'small.ts': 'full',
      'mid.ts': 'full',
      'big.ts': 'partial',
      'yarn.lock': 'full',
    });
    const note = '[large-diff sampled: 4 of 5 changed files in full, 1 in part, 0 omitted (budget 80 lines';
    expect(r.diff.startsWith(note)).toBe(true);
    const body = r.diff.slice(r.diff.indexOf('\n') + 1);
    expect(body).toContain('\n[diff truncated: 21 of 64 lines shown; read the files in the checkout for the rest]\n');
    expect(body.split('\n').filter((l) => l && !l.startsWith('[diff truncated'))).toHaveLength(80);
  });

  it('shows no start of a file when only a few lines are left', () => {
    const files = [file('a.ts', 30), file('b.ts', 60)];
    const r = fitDiff(files, reviewOrder(files, new Set()), patchesOf(files), { maxLines: 40, maxChars: 10_000 });
    expect(Object.fromEntries(r.shares)).toEqual({ 'a.ts': 'full', 'b.ts': 'omitted' });
    expect(shown(r.diff)).toEqual(['a.ts']);
  });

  it('leaves out files that do not fit the character budget and says how many', () => {
    const files = [file('a.ts', 5), file('b.ts', 50), file('c.ts', 50)];
    // a's patch is 105 characters, b's and c's 505 each.
    const r = fitDiff(files, reviewOrder(files, new Set()), patchesOf(files), { maxLines: 10_000, maxChars: 500 });
    expect(Object.fromEntries(r.shares)).toEqual({ 'a.ts': 'full', 'b.ts': 'partial', 'c.ts': 'omitted' });
    expect(r.diff).toContain('1 of 3 changed files in full, 1 in part, 1 omitted');
    const body = r.diff.slice(r.diff.indexOf('\n') + 1);
    expect(body.slice(0, body.indexOf('\n[diff truncated')).length + 1).toBeLessThanOrEqual(500);
  });

  it('samples when git was asked for only some patches, even if those fit', () => {
    const files = [file('a.ts', 1), file('b.ts', 1)];
    const r = fitDiff(files, files, new Map([['a.ts', patch(files[0]!)]]), { maxLines: 100, maxChars: 10_000 });
    expect(r.sampled).toBe(true);
    expect(Object.fromEntries(r.shares)).toEqual({ 'a.ts': 'full', 'b.ts': 'omitted' });
  });
});
