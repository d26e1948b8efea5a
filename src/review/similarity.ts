// When two findings are "the same problem". One rule serves grouping within a round and
// stuck detection across rounds (docs/architecture.md, "Agreement and stuck findings"):
//   same file (after following renames), same category code or similar titles,
//   and lines within LINE_WINDOW when both are known and the caller cares about lines.
// Title similarity is the Jaccard index of word sets (stop words dropped) >= TITLE_THRESHOLD.
import { categoryCode } from './finding-id.js';

export const LINE_WINDOW = 3;
export const TITLE_THRESHOLD = 0.5;

const STOP = new Set([
  'a',
  'an',
  'the',
  'of',
  'in',
  'on',
  'to',
  'is',
  'for',
  'and',
  'or',
  'with',
  'when',
  'be',
  'not',
  'no',
  'it',
  'this',
]);

export function titleWords(title: string): Set<string> {
  return new Set(
    title
      .toLowerCase()
      .split(/[^a-z0-9_]+/)
      .filter((w) => w.length > 1 && !STOP.has(w))
      .map((w) => w.replace(/(ing|ed|es|s)$/, '')),
  );
}

/** Word sets by title, for one grouping pass: each title is split once, not once a comparison. */
export function titleWordCache(): (title: string) => Set<string> {
  const cache = new Map<string, Set<string>>();
  return (title) => {
    let words = cache.get(title);
    if (!words) cache.set(title, (words = titleWords(title)));
    return words;
  };
}

export function titleSimilarity(a: string, b: string, words: (title: string) => Set<string> = titleWords): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 && wb.size === 0) return 1;
  let inter = 0;
  for (const w of wa) if (wb.has(w)) inter++;
  return inter / (wa.size + wb.size - inter);
}

export interface Comparable {
  category: string;
  file: string | null;
  line: number | null;
  title: string;
}

export interface SameProblemOptions {
  /** Compare line numbers (grouping) or ignore them (stuck detection: fixes move lines). */
  useLines: boolean;
  /** Old path → new path, so a finding on a renamed file still matches. */
  renames?: ReadonlyMap<string, string>;
  /** A titleWordCache() shared across the comparisons of one pass. */
  words?: (title: string) => Set<string>;
}

export function sameProblem(a: Comparable, b: Comparable, opts: SameProblemOptions): boolean {
  const follow = (f: string | null) => (f && opts.renames?.get(f)) ?? f;
  if (follow(a.file) !== follow(b.file)) return false;
  if (opts.useLines && a.line != null && b.line != null && Math.abs(a.line - b.line) > LINE_WINDOW) return false;
  const sim = titleSimilarity(a.title, b.title, opts.words);
  if (sim >= TITLE_THRESHOLD) return true;
  // Same category at the same line is one problem described in other words when the titles
  // overlap enough; two different bugs on one line ("ignores the offset", "throws on empty")
  // stay apart. Over-reporting beats dropping a bug from the fix payload.
  const sameSpot = opts.useLines && a.line != null && a.line === b.line;
  return sameSpot && categoryCode(a.category) === categoryCode(b.category) && sim >= TITLE_THRESHOLD / 2;
}
