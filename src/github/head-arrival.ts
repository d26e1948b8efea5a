// What GitHub knows about the PR head that a `/review-loop` command must cover: when the
// head arrived, and which commit a short sha names.
//
// When did the head arrive? A commit's author and committer dates are whatever its author's
// git wrote, so they prove nothing. GitHub's GraphQL `Commit.pushedDate` was removed in 2023
// ("`pushedDate` is no longer supported"), `PullRequestCommit` timeline items carry no time,
// and `HeadRefForcePushedEvent` covers force pushes only. The repository activity log
// (`GET /repos/{owner}/{repo}/activity`, "List repository activities") does record every push,
// force push and branch creation with the time GitHub received it, per ref
// (https://docs.github.com/rest/repos/repos#list-repository-activities). The branch lives in
// the head repository: the fork's log for a fork PR.
import type { Octokit } from './client.js';
import type { PrMeta, RepoRef } from '../domain/pull-request.js';

export type HeadArrival =
  /** GitHub's own record of the push that made the head. */
  | { source: 'activity'; at: string }
  /** The log answers but its newest entry for the branch is another commit (not logged yet, or moved). */
  | { source: 'activity-missing'; newest: string | null }
  /** No log to read (e.g. a fork the token cannot see): the head commit's committer date, which anyone can set. */
  | { source: 'committer-date'; at: string; why: string };

const status = (e: unknown): number | undefined => (e as { status?: number }).status;

export async function headArrival(octokit: Octokit, repo: RepoRef, meta: PrMeta): Promise<HeadArrival> {
  const [owner = '', name = ''] = meta.headRepoFullName.split('/');
  try {
    // Newest first (`direction` defaults to desc): the entry that set the branch to its head.
    const { data } = await octokit.rest.repos.listActivities({
      owner,
      repo: name,
      ref: `refs/heads/${meta.headRef}`,
      direction: 'desc',
      per_page: 1,
    });
    const newest = data[0];
    if (newest?.after === meta.headSha) return { source: 'activity', at: newest.timestamp };
    return { source: 'activity-missing', newest: newest ? `${newest.after} at ${newest.timestamp}` : null };
  } catch (e) {
    const code = status(e);
    if (code !== 403 && code !== 404) throw e;
    // The base repository serves a fork PR's head commit too (refs/pull/N/head).
    const { data } = await octokit.rest.repos.getCommit({ ...repo, ref: meta.headSha });
    const at = data.commit.committer?.date ?? data.commit.author?.date;
    if (!at) throw new Error(`GitHub shows no committer date for the PR head ${meta.headSha}`, { cause: e });
    const why = `the activity log of ${meta.headRepoFullName} is not readable (HTTP ${code})`;
    return { source: 'committer-date', at, why };
  }
}

/**
 * The full sha GitHub resolves a short one to, or null when it names no commit or more than
 * one (GitHub then answers 422 "No commit found for SHA", and counts objects of the whole fork
 * network: timescale/timescaledb#8102).
 */
export async function resolveShortSha(octokit: Octokit, repo: RepoRef, short: string): Promise<string | null> {
  try {
    const { data } = await octokit.rest.repos.getCommit({ ...repo, ref: short });
    return data.sha.toLowerCase();
  } catch (e) {
    if (status(e) === 422 || status(e) === 404) return null;
    throw e;
  }
}
