// Everything a round needs to know about the PR at its current head, read from the API.
import type { Octokit } from './client.js';
import { getPrDiff, getPrFiles, getPrMeta, getReviewState, truncateDiff } from './pull-request.js';
import { getReviewThreads } from './threads.js';
import type { PrContext, PrMeta, RepoRef } from './types.js';
import { filterDiff, filterFiles } from '../review/path-filter.js';

export interface ContextBudget {
  maxDiffLines: number;
  maxDiffChars: number;
  /** The repo config's path filter: files the reviewers are shown. */
  keep?: (file: string) => boolean;
}

export async function loadPrContext(
  octokit: Octokit,
  repo: RepoRef,
  meta: PrMeta,
  budget: ContextBudget,
  push: { canPush: boolean; reason: string | null },
): Promise<PrContext> {
  const [files, rawDiff, threads, reviewState] = await Promise.all([
    getPrFiles(octokit, repo, meta.number),
    getPrDiff(octokit, repo, meta.number),
    getReviewThreads(octokit, repo, meta.number),
    getReviewState(octokit, repo, meta.number),
  ]);
  const keep = budget.keep;
  const { diff, truncated } = truncateDiff(keep ? filterDiff(rawDiff, keep) : rawDiff, budget.maxDiffLines, budget.maxDiffChars);
  return {
    repo,
    meta,
    files: keep ? filterFiles(files, keep) : files,
    diff,
    diffTruncated: truncated,
    threads: threads.threads,
    threadsTruncated: threads.truncated,
    reviewState,
    canPush: push.canPush,
    reviewOnlyReason: push.reason,
  };
}

/**
 * After a push GitHub updates the PR head asynchronously; poll briefly until it shows
 * the pushed commit (SPEC §6: "the action checks that the PR head moved").
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
