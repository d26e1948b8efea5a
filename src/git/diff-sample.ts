// Fitting a PR's diff into the budget (`max-diff-lines`, `max-diff-chars`). When the whole
// diff fits it is kept as git wrote it. Otherwise it is sampled: whole files in review order
// while they fit, then the start of the first file that did not, under a note that says
// "large-diff sampled".
//
// Review order: files named in unresolved review threads first (a human asked about them);
// then hand-written files before generated, lock, vendored and binary ones (large, rarely
// reviewed line by line; GitHub too hides generated files in diffs by default); within each group the
// smallest change first, so the budget shows as many whole files as it can and the big,
// often mechanical changes (bulk renames, reformatting, data) are the ones left to the checkout.
import type { DiffShare, PrFile } from '../domain/pull-request.js';

export interface DiffBudget {
  maxLines: number;
  maxChars: number;
}

export interface SampledDiff {
  diff: string;
  sampled: boolean;
  /** What the diff holds of each file, by filename. */
  shares: Map<string, DiffShare>;
}

/** Lock files, minified bundles, source maps, snapshots, generated code and vendored folders. */
const GENERATED = [
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb|composer\.lock|Gemfile\.lock)$/,
  /(^|\/)(Cargo\.lock|poetry\.lock|Pipfile\.lock|uv\.lock|go\.sum|flake\.lock|packages\.lock\.json|pubspec\.lock)$/,
  /\.(min\.js|min\.css|map|snap|lock)$/,
  /(\.pb\.go|_pb2\.pyi?|\.g\.dart|\.generated\.\w+|\.designer\.cs)$/,
  /(^|\/)(vendor|node_modules|third_party|__snapshots__|dist|build)\//,
];

export function isGeneratedPath(file: string): boolean {
  return GENERATED.some((re) => re.test(file));
}

/** The files in review order (see the top of this file); `threadPaths` are repo-relative paths. */
export function reviewOrder(files: PrFile[], threadPaths: ReadonlySet<string>): PrFile[] {
  const group = (f: PrFile): number => {
    if (threadPaths.has(f.filename)) return 0;
    if (f.previousFilename !== undefined && threadPaths.has(f.previousFilename)) return 0;
    return f.binary || isGeneratedPath(f.filename) ? 2 : 1;
  };
  const size = (f: PrFile): number => f.additions + f.deletions;
  return files
    .map((f) => ({ f, g: group(f), s: size(f) }))
    .sort((a, b) => a.g - b.g || a.s - b.s || (a.f.filename < b.f.filename ? -1 : a.f.filename > b.f.filename ? 1 : 0))
    .map((x) => x.f);
}

/** The start of a file is shown only when at least this many lines are left for it. */
const MIN_PARTIAL_LINES = 10;

/** A patch has at least its changed lines plus four header lines (diff --git, index, ---, +++). */
const estimatedLines = (f: PrFile): number => f.additions + f.deletions + 4;

/**
 * The files whose patches are worth asking git for: every file that could still fit the line
 * budget in review order, and the first one that could not (its start fills what is left).
 * Bounds the work and memory by the budget, not by the size of the PR.
 */
export function patchCandidates(ordered: PrFile[], budget: DiffBudget): PrFile[] {
  let left = budget.maxLines;
  let overflow: PrFile | null = null;
  const picked: PrFile[] = [];
  for (const f of ordered) {
    const lines = estimatedLines(f);
    if (lines <= left) {
      picked.push(f);
      left -= lines;
    } else if (!overflow) {
      overflow = f;
      picked.push(f);
    }
  }
  return picked;
}

/**
 * The diff within budget. `files` are in git's order, `ordered` in review order, `patches`
 * holds the patches git produced: the diff is kept whole only when it holds every file's.
 */
export function fitDiff(
  files: PrFile[],
  ordered: PrFile[],
  patches: Map<string, string>,
  budget: DiffBudget,
): SampledDiff {
  const whole = files.map((f) => patches.get(f.filename));
  if (whole.every((p) => p !== undefined)) {
    const diff = whole.join('');
    if (lineCount(diff) <= budget.maxLines && diff.length <= budget.maxChars) {
      return { diff, sampled: false, shares: new Map(files.map((f) => [f.filename, 'full'])) };
    }
  }
  return sample(ordered, patches, budget);
}

function sample(ordered: PrFile[], patches: Map<string, string>, budget: DiffBudget): SampledDiff {
  const shares = new Map<string, DiffShare>(ordered.map((f) => [f.filename, 'omitted']));
  const parts: string[] = [];
  let lines = budget.maxLines;
  let chars = budget.maxChars;
  let firstLeftOut: string | null = null;
  for (const f of ordered) {
    const patch = patches.get(f.filename);
    if (patch === undefined) continue;
    const n = lineCount(patch);
    if (n <= lines && patch.length <= chars) {
      parts.push(patch);
      shares.set(f.filename, 'full');
      lines -= n;
      chars -= patch.length;
    } else if (firstLeftOut === null) firstLeftOut = f.filename;
  }
  if (firstLeftOut !== null && lines >= MIN_PARTIAL_LINES) {
    const cut = cutLines(patches.get(firstLeftOut)!, lines, chars);
    if (cut.shownLines >= MIN_PARTIAL_LINES) {
      parts.push(cut.diff);
      shares.set(firstLeftOut, 'partial');
    }
  }
  const count = (s: DiffShare) => [...shares.values()].filter((v) => v === s).length;
  const note =
    `[large-diff sampled: ${count('full')} of ${ordered.length} changed files in full, ${count('partial')} in part, ` +
    `${count('omitted')} omitted (budget ${budget.maxLines} lines / ${budget.maxChars} characters); ` +
    'order: files in unresolved review threads, then smallest change first, generated/lock/binary files last; ' +
    'files.json says what this diff holds of each file ("inDiff")]\n';
  return { diff: note + parts.join(''), sampled: true, shares };
}

/** Lines of a diff; a final newline ends the last line, it does not start another one. */
function lineCount(text: string): number {
  if (!text) return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

/** Cuts the diff to the budget on a line boundary and says so in the text itself. */
export function truncateDiff(diff: string, maxLines: number, maxChars: number): { diff: string; truncated: boolean } {
  const { diff: out, truncated } = cutLines(diff, maxLines, maxChars);
  return { diff: out, truncated };
}

interface Cut {
  diff: string;
  truncated: boolean;
  shownLines: number;
}

function cutLines(diff: string, maxLines: number, maxChars: number): Cut {
  const lines = diff.split('\n');
  // A final newline ends the last line; it does not start another one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  let kept = 0;
  let chars = 0;
  while (kept < lines.length && kept < maxLines && chars + (lines[kept]?.length ?? 0) + 1 <= maxChars) {
    chars += (lines[kept]?.length ?? 0) + 1;
    kept++;
  }
  if (kept >= lines.length) return { diff, truncated: false, shownLines: kept };
  const shown = `${kept} of ${lines.length} lines shown`;
  const note = `\n[diff truncated: ${shown}; read the files in the checkout for the rest]\n`;
  return { diff: lines.slice(0, kept).join('\n') + note, truncated: true, shownLines: kept };
}
