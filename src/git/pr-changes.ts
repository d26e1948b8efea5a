// A PR's changed files and its diff within the budget, from the checkout: the merge base
// (fetched when missing), every changed file, then the patches of the files that can fit.
import type { PrFile } from '../domain/pull-request.js';
import { fitDiff, patchCandidates, reviewOrder, type DiffBudget } from './diff-sample.js';
import { ensureMergeBase } from './merge-base.js';
import { listChangedFiles, patchesOf } from './pr-diff.js';
import type { Git } from './runner.js';

export interface PrChangesOptions {
  budget: DiffBudget;
  /** The repo config's path filter: files the reviewers are shown. */
  keep?: (file: string) => boolean;
  /**
   * Paths named in unresolved review threads: their patches come first when the diff is sampled.
   * May be a promise, so the API request for the threads runs while git lists the files.
   */
  threadPaths: ReadonlySet<string> | Promise<ReadonlySet<string>>;
}

export interface PrChanges {
  /** Every changed file (after the path filter), in git's order, with what the diff holds of it. */
  files: PrFile[];
  diff: string;
  /** Over the budget: the diff is "large-diff sampled". */
  sampled: boolean;
  /** null when base and head share no history; the diff is then taken against the base itself. */
  mergeBase: string | null;
  /** Fetches made to find the merge base, for the log. */
  fetched: string[];
  /** Files whose patch was too large to read at all (listed, never in the diff). */
  tooLarge: string[];
}

export async function readPrChanges(
  git: Git,
  shas: { baseSha: string; headSha: string },
  opts: PrChangesOptions,
): Promise<PrChanges> {
  const { mergeBase, fetched } = await ensureMergeBase(git, shas.baseSha, shas.headSha);
  const range = { from: mergeBase ?? shas.baseSha, to: shas.headSha };
  const listed = await listChangedFiles(git, range);
  const files = opts.keep ? listed.filter((f) => opts.keep!(f.filename)) : listed;
  const ordered = reviewOrder(files, await opts.threadPaths);
  const candidates = patchCandidates(ordered, opts.budget);
  // Every file may fit: one call for the whole diff, in git's order, with no pathspec at all.
  const whole = candidates.length === files.length && !opts.keep;
  const { patches, tooLarge } = await patchesOf(git, range, candidates, whole);
  const fit = fitDiff(files, ordered, patches, opts.budget);
  return {
    files: files.map((f) => ({ ...f, inDiff: fit.shares.get(f.filename) ?? 'omitted' })),
    diff: fit.diff,
    sampled: fit.sampled,
    mergeBase,
    fetched,
    tooLarge,
  };
}
