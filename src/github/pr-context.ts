// Everything a round needs to know about the PR at its current head: metadata, threads and
// reviews from the API; the changed files and the diff from the checkout, because
// the API's diff media type refuses PRs past 300 files or 20,000 lines and its file list
// stops at 3,000 files.
import type { Octokit } from './client.js';
import { computeReviewState, getPrMeta } from './pull-request.js';
import { getReviewThreads, type ThreadsAndReviews } from './threads.js';
import type { PrContext, PrMeta, RepoRef, ReviewThread } from '../domain/pull-request.js';
import { readDelta } from '../git/delta.js';
import { readPrChanges } from '../git/pr-changes.js';
import type { Git } from '../git/runner.js';

export interface ContextBudget {
  maxDiffLines: number;
  maxDiffChars: number;
  /** The repo config's path filter: files the reviewers are shown. */
  keep?: (file: string) => boolean;
}

/** The checkout the diff is read from (at the PR head), and where to say what was fetched. */
export interface LocalCheckout {
  git: Git;
  log?: (msg: string) => void;
}

export async function loadPrContext(
  octokit: Octokit,
  repo: RepoRef,
  meta: PrMeta,
  budget: ContextBudget,
  local: LocalCheckout,
  /** The head the last review saw: the context then carries the change since. */
  since?: string,
  /** The PR's threads and reviews as already read for this head, used instead of reading them again. */
  read?: ThreadsAndReviews,
): Promise<PrContext> {
  const threadsRead = read ? Promise.resolve(read) : getReviewThreads(octokit, repo, meta.number);
  const threadPaths = threadsRead.then((t) => unresolvedPaths(t.threads));
  // Its failure is reported once, through threadsRead below.
  threadPaths.catch(() => undefined);
  const deltaRead = since ? readDelta(local.git, since, meta.headSha, budget.maxDiffChars) : Promise.resolve(null);
  const [threads, changes, delta] = await Promise.all([
    threadsRead,
    readPrChanges(local.git, meta, {
      budget: { maxLines: budget.maxDiffLines, maxChars: budget.maxDiffChars },
      ...(budget.keep ? { keep: budget.keep } : {}),
      threadPaths,
    }),
    deltaRead,
  ]);
  const log = local.log ?? (() => undefined);
  if (changes.fetched.length) log(`fetched from origin to find the PR's merge base: ${changes.fetched.join('; ')}`);
  if (!changes.mergeBase) log(`base ${meta.baseSha} and head ${meta.headSha} share no history: diff against the base`);
  if (since && !delta && since !== meta.headSha) {
    const old = since.slice(0, 7);
    log(`the last reviewed head ${old} is not in this head's history: no delta, the whole PR is reviewed`);
  }
  if (changes.tooLarge.length) log(`patches too large to read, left out of the diff: ${changes.tooLarge.join(', ')}`);
  if (changes.sampled) {
    const full = changes.files.filter((f) => f.inDiff === 'full').length;
    log(`the diff is over the budget: large-diff sampled (${full} of ${changes.files.length} files in full)`);
  }
  return {
    repo,
    meta,
    files: changes.files,
    diff: changes.diff,
    diffTruncated: changes.sampled,
    threads: threads.threads,
    threadsTruncated: threads.truncated,
    reviewState: computeReviewState(threads.reviews),
    ...(delta ? { delta } : {}),
  };
}

function unresolvedPaths(threads: ReviewThread[]): Set<string> {
  const paths = new Set<string>();
  for (const t of threads) {
    if (t.isResolved) continue;
    if (t.path) paths.add(t.path);
    for (const c of t.comments) if (c.path) paths.add(c.path);
  }
  return paths;
}

/**
 * After a push GitHub updates the PR head asynchronously; poll briefly until it shows
 * the pushed commit.
 */
export async function waitForHead(
  octokit: Octokit,
  repo: RepoRef,
  number: number,
  sha: string,
  opts: { attempts?: number; delayMs?: number } = {},
): Promise<PrMeta | null> {
  const attempts = opts.attempts ?? 10;
  for (let i = 0; i < attempts; i++) {
    const meta = await getPrMeta(octokit, repo, number);
    if (meta.headSha === sha) return meta;
    await new Promise((r) => setTimeout(r, opts.delayMs ?? 1000 * Math.min(i + 1, 5)));
  }
  return null;
}
