// PR metadata, read through the REST API, and the human review state (the maintainer veto) computed from the
// reviews that threads.ts reads with the first page of review threads.
import type { Octokit } from './client.js';
import type { PrMeta, RepoRef, ReviewState } from '../domain/pull-request.js';

export async function getPrMeta(octokit: Octokit, repo: RepoRef, number: number): Promise<PrMeta> {
  const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: number });
  return {
    number: data.number,
    title: data.title,
    body: data.body ?? '',
    author: data.user?.login ?? '',
    state: data.state === 'closed' ? 'closed' : 'open',
    merged: Boolean(data.merged),
    draft: Boolean(data.draft),
    htmlUrl: data.html_url,
    baseRef: data.base.ref,
    baseSha: data.base.sha,
    headRef: data.head.ref,
    headSha: data.head.sha,
    headRepoFullName: data.head.repo?.full_name ?? '',
    maintainerCanModify: Boolean(data.maintainer_can_modify),
    baseRepoFullName: data.base.repo.full_name,
  };
}

// The changed files and the diff come from the checkout (src/git/pr-diff.ts), not from
// "List pull requests files" (at most 3,000 files) or the diff media type (refused past 300
// files or 20,000 lines): https://docs.github.com/en/repositories/creating-and-managing-repositories/repository-limits

const MAINTAINER_ASSOCIATIONS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

/**
 * The maintainer veto, the consensus's first rule, computed in code: a reviewer's latest decisive
 * review (APPROVED, CHANGES_REQUESTED or DISMISSED; comments do not change it) counts
 * when it requests changes and the reviewer is an owner, member or collaborator.
 */
export function computeReviewState(
  reviews: { login: string; state: string; association: string; submittedAt: string }[],
): ReviewState {
  const latest = new Map<string, { state: string; association: string }>();
  const ordered = [...reviews].sort((a, b) => a.submittedAt.localeCompare(b.submittedAt));
  for (const r of ordered) {
    if (!r.login || !['APPROVED', 'CHANGES_REQUESTED', 'DISMISSED'].includes(r.state)) continue;
    latest.set(r.login, { state: r.state, association: r.association });
  }
  const changesRequestedBy = [...latest.entries()]
    .filter(([, v]) => v.state === 'CHANGES_REQUESTED' && MAINTAINER_ASSOCIATIONS.has(v.association))
    .map(([login, v]) => ({ login, association: v.association }));
  return { hasChangesRequested: changesRequestedBy.length > 0, changesRequestedBy };
}
