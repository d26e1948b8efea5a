// When two findings are "the same problem". One notion serves grouping within a round, stuck
// detection across rounds and finding our own threads (docs/decisions/0005-agreement-counts-problems.md):
//
// - same file (after following renames), and, when the caller compares lines, ranges that overlap
//   or lie within LINE_WINDOW lines of each other; a finding with several places (one problem
//   repeated in several spots) is at each of them, so two findings meet when any place of one
//   meets any place of the other;
// - then either titles that say the same (word-set Jaccard >= TITLE_THRESHOLD), or, for findings
//   of two different reviewers at known, near lines, a link by content: the same kind of problem
//   (category) described with the same code names and similar words. Real models never word one problem alike, so the
//   title alone misses most agreement; but one reviewer may report two bugs on one line, so its own
//   findings are only ever joined by their titles.
import { codeNames, sharedCount } from './code-names.js';
import { categoryCode } from './finding-id.js';
import { placesOf, type Place } from './places.js';

export const LINE_WINDOW = 3;
export const TITLE_THRESHOLD = 0.5;
/** Content links: words shared by the whole texts, and the code names they both mention. */
const CONTENT_WITH_NAMES = 0.2;
const SHARED_NAMES = 2;
const CONTENT_ALONE = 0.4;

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
  'that',
  'by',
  'as',
  'at',
  'from',
  'are',
  'was',
  'but',
  'its',
  'into',
  'than',
  'then',
  'so',
  'if',
]);

function titleWords(title: string): Set<string> {
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
  return jaccard(words(a), words(b));
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  // Two texts with no words to compare (say, titles in a script without ASCII words) are not
  // known to say the same: as alike as every other pair of such texts, they would all be one.
  if (a.size === 0 && b.size === 0) return 0;
  const inter = sharedCount(a, b);
  return inter / (a.size + b.size - inter);
}

export interface Comparable {
  category: string;
  file: string | null;
  line: number | null;
  endLine?: number | null;
  title: string;
  /** The rest of the text, when known: content links read it with the title. */
  description?: string;
  suggestion?: string | null;
  /** Every place, when the finding has several (file/line above is the first). */
  locations?: readonly Place[] | null;
}

/** What content links compare, computed once per finding. */
interface Content {
  words: Set<string>;
  names: Set<string>;
}

/** Content by finding, for one pass. */
export type ContentCache = (f: Comparable) => Content;

export function contentCache(): ContentCache {
  const cache = new WeakMap<Comparable, Content>();
  return (f) => {
    let c = cache.get(f);
    if (!c) {
      const text = [f.title, f.description ?? '', f.suggestion ?? ''].join('\n');
      cache.set(f, (c = { words: titleWords(text), names: codeNames(text) }));
    }
    return c;
  };
}

export interface SameProblemOptions {
  /** Compare line numbers (grouping) or ignore them (stuck detection: fixes move lines). */
  useLines: boolean;
  /** Old path → new path, so a finding on a renamed file still matches. */
  renames?: ReadonlyMap<string, string>;
  /** A titleWordCache() shared across the comparisons of one pass. */
  words?: (title: string) => Set<string>;
  /** The two findings come from different reviewers: a link by content may join them. */
  crossReviewer?: boolean;
  /** A contentCache() shared across the comparisons of one pass. */
  content?: ContentCache;
}

export function sameProblem(a: Comparable, b: Comparable, opts: SameProblemOptions): boolean {
  const at = meeting(a, b, opts);
  if (at === APART) return false;
  const sim = titleSimilarity(a.title, b.title, opts.words);
  if (sim >= TITLE_THRESHOLD) return true;
  const sameKind = categoryCode(a.category) === categoryCode(b.category);
  // Same category at the same line is one problem described in other words when the titles
  // overlap enough; two different bugs on one line ("ignores the offset", "throws on empty")
  // stay apart. Over-reporting beats dropping a bug from the fix payload. Never for one
  // reviewer's own findings: two of them at one line are two problems as that reviewer sees it.
  if (opts.crossReviewer && (at & SAME_LINE) !== 0 && sameKind && sim >= TITLE_THRESHOLD / 2) return true;
  // A content link needs a place too: both lines known and near (the file alone is too wide a place).
  const placed = (at & BOTH_PLACED) !== 0;
  return Boolean(opts.crossReviewer) && placed && sameKind && linkedByContent(a, b, opts.content ?? contentCache());
}

// How two findings' places meet: not at all, or in one file (near lines, when lines count), with
// both lines known, at the very same line. Bits, so the common one-place case allocates nothing.
const APART = 0;
const MET = 1;
const BOTH_PLACED = 2;
const SAME_LINE = 4;

function meeting(a: Comparable, b: Comparable, opts: SameProblemOptions): number {
  if (!a.locations && !b.locations) return meetingOf(a, b, opts);
  let at = APART;
  for (const pa of placesOf(a)) for (const pb of placesOf(b)) at |= meetingOf(pa, pb, opts);
  return at;
}

function meetingOf(a: Place, b: Place, opts: SameProblemOptions): number {
  const follow = (f: string | null) => (f && opts.renames?.get(f)) ?? f;
  if (follow(a.file) !== follow(b.file)) return APART;
  if (!opts.useLines) return MET;
  if (!near(a, b)) return APART;
  if (a.line == null || b.line == null) return MET;
  return MET | BOTH_PLACED | (a.line === b.line ? SAME_LINE : 0);
}

/** Ranges that overlap or lie within LINE_WINDOW lines; an unknown line is near anything. */
export function near(a: Place, b: Place): boolean {
  if (a.line == null || b.line == null) return true;
  const aEnd = Math.max(a.line, a.endLine ?? a.line);
  const bEnd = Math.max(b.line, b.endLine ?? b.line);
  const gap = Math.max(a.line, b.line) - Math.min(aEnd, bEnd);
  return gap <= LINE_WINDOW;
}

function linkedByContent(a: Comparable, b: Comparable, content: ContentCache): boolean {
  const ca = content(a);
  const cb = content(b);
  const words = jaccard(ca.words, cb.words);
  return words >= CONTENT_ALONE || (words >= CONTENT_WITH_NAMES && sharedCount(ca.names, cb.names) >= SHARED_NAMES);
}

/** How many code names `f` shares with the other texts: the clearest member of a group shares most. */
export function namesSharedWith(f: Comparable, others: readonly Comparable[], content: ContentCache): number {
  const mine = content(f).names;
  return others.reduce((n, o) => (o === f ? n : n + sharedCount(mine, content(o).names)), 0);
}
