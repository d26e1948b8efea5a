// Loop safety and memory: a pull_request run is skipped when its head is the
// action's own fix commit (so a loop can never re-trigger itself), or was already reviewed
// to a final state. Manual rounds (workflow_dispatch, /review-loop) never come here.
import { ROUND_TRAILER } from '../fix/commit-message.js';
import { commitMessage, hasTrailer, type Git } from '../git/index.js';
import type { PriorRuns } from './memory.js';
import { SkipRun } from './checks.js';
import type { FailOn } from '../review/consensus.js';
import type { Counts } from '../domain/findings.js';

export async function isPushSkipCommit(git: Git, sha: string): Promise<boolean> {
  return hasTrailer(git, await commitMessage(git, sha), ROUND_TRAILER);
}

function skipOwnFixCommit(sha: string): string {
  return (
    `Head ${sha.slice(0, 7)} is this action's own fix commit (it carries the ${ROUND_TRAILER} trailer); ` +
    'skipping so the loop cannot re-trigger itself.'
  );
}

/** Throws SkipRun, carrying the counts recorded for the head so fail-on still holds. */
export async function skipIfHandled(git: Git, prior: PriorRuns, headSha: string, failOn: FailOn): Promise<void> {
  const recorded = (counts: Counts | undefined) => (counts ? { counts, failOn } : undefined);
  // The trailer alone proves nothing (anyone can write it): the head must also be a fix
  // commit that a trusted state says this action pushed. `prior` holds only states this
  // workflow job wrote in a run of this workflow (memory.ts), so a state forged by another
  // workflow posting as the same github-actions[bot] cannot make a run skip.
  const ownFix = prior.states.find((s) => s.kind === 'fix' && s.commitSha === headSha);
  if (ownFix && (await isPushSkipCommit(git, headSha)))
    throw new SkipRun(skipOwnFixCommit(headSha), recorded(ownFix.counts));
  if (prior.finalForHead) {
    throw new SkipRun(
      `Head ${headSha.slice(0, 7)} was already reviewed (status ${prior.finalForHead.status}); ` +
        'start a manual round with workflow_dispatch or /review-loop to review it again.',
      recorded(prior.finalForHead.counts),
    );
  }
}

/**
 * A reply run (pull_request_review_comment) on a head already handled answers only: no review, no
 * setup, the replies waiting in the action's threads answered. Unless an accepted decision waits to
 * be carried out: then it is a push run, the full review, and there is no skip (null).
 */
export function replyAnswersOnly(handled: SkipRun, d: { decisionWaits: boolean }): SkipRun | null {
  if (d.decisionWaits) return null;
  return new SkipRun(
    `Answer-only: ${handled.message} A reply run answers the replies waiting in the action's threads; ` +
      'nothing is reviewed.',
    handled.recorded,
  );
}
