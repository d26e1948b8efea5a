// Loop safety (SPEC §6): a run started by the action's own fix commit is skipped, so a
// loop can never re-trigger itself.
import { ROUND_TRAILER } from './fix/commit-message.js';
import { commitMessage, hasTrailer, type Git } from './git/index.js';

export async function isPushSkipCommit(git: Git, sha: string): Promise<boolean> {
  return hasTrailer(git, await commitMessage(git, sha), ROUND_TRAILER);
}

export function skipOwnFixCommit(sha: string): string {
  return `Head ${sha.slice(0, 7)} is this action's own fix commit (it carries the ${ROUND_TRAILER} trailer); skipping so the loop cannot re-trigger itself.`;
}
