// Puts the checkout on the PR head branch (the checkout may be the merge ref of
// pull_request or the default branch of workflow_dispatch / issue_comment).
import type { Git } from './runner.js';
import { checkBranchName, currentBranch, headSha, isShallow, resolveCommit } from './state.js';

export interface PrHead {
  headRef: string;
  headSha: string;
  /** Depth to fetch when the clone is shallow (actions/checkout's default is depth 1). */
  shallowDepth?: number;
  /**
   * The ref to fetch from origin instead of refs/heads/<headRef>: a fork's branch is not in
   * origin, but GitHub keeps refs/pull/<n>/head there for every PR.
   */
  fetchRef?: string;
}

export class PrMovedError extends Error {
  constructor(
    readonly headRef: string,
    readonly expectedSha: string,
    readonly actualSha: string,
  ) {
    super(`the PR head moved: origin/${headRef} is ${actualSha}, the event said ${expectedSha}`);
    this.name = 'PrMovedError';
  }
}

/** Returns true when it had to fetch and check out the head branch. */
export async function ensureAtPrHead(git: Git, pr: PrHead): Promise<boolean> {
  const branch = await checkBranchName(git, pr.headRef);
  const want = pr.headSha.toLowerCase();
  if (!/^[0-9a-f]{40}$/.test(want)) throw new Error(`not a full commit sha: ${JSON.stringify(pr.headSha)}`);
  const [sha, current] = await Promise.all([resolveCommit(git, 'HEAD'), currentBranch(git)]);
  if (sha === want && current === branch) return false;

  const tracking = `refs/remotes/origin/${branch}`;
  // A shallow clone would otherwise pull the branch's whole history; a bounded depth is
  // enough to hold the head commit and a little context for the agents.
  const depth = (await isShallow(git)) ? [`--depth=${pr.shallowDepth ?? 50}`] : [];
  await git([
    'fetch',
    '--no-tags',
    '--no-recurse-submodules',
    ...depth,
    'origin',
    `+${pr.fetchRef ?? `refs/heads/${branch}`}:${tracking}`,
  ]);

  // Checked before switching so a moved PR leaves the checkout where it was.
  const fetched = await resolveCommit(git, tracking);
  if (fetched !== want) throw new PrMovedError(branch, want, fetched ?? '(missing)');
  await git(['checkout', '--quiet', '-B', branch, tracking]);
  const now = await headSha(git);
  if (now !== want) throw new PrMovedError(branch, want, now);
  return true;
}
