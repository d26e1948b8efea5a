// PR metadata, files, diff and human review state, read through the REST API.
import type { Octokit } from './client.js';
import type { PrFile, PrMeta, RepoRef, ReviewState } from './types.js';

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

export async function getPrFiles(octokit: Octokit, repo: RepoRef, number: number): Promise<PrFile[]> {
  const files = await octokit.paginate(octokit.rest.pulls.listFiles, { ...repo, pull_number: number, per_page: 100 });
  return files.map((f) => ({
    filename: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    ...(f.previous_filename ? { previousFilename: f.previous_filename } : {}),
  }));
}

export async function getPrDiff(octokit: Octokit, repo: RepoRef, number: number): Promise<string> {
  const res = await octokit.rest.pulls.get({ ...repo, pull_number: number, mediaType: { format: 'diff' } });
  return res.data as unknown as string;
}

/** Cuts the diff to the budget on a line boundary and says so in the text itself. */
export function truncateDiff(diff: string, maxLines: number, maxChars: number): { diff: string; truncated: boolean } {
  const lines = diff.split('\n');
  // A final newline ends the last line; it does not start another one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  let kept = 0;
  let chars = 0;
  while (kept < lines.length && kept < maxLines && chars + (lines[kept]?.length ?? 0) + 1 <= maxChars) {
    chars += (lines[kept]?.length ?? 0) + 1;
    kept++;
  }
  if (kept >= lines.length) return { diff, truncated: false };
  const note = `\n[diff truncated: ${kept} of ${lines.length} lines shown; read the files in the checkout for the rest]\n`;
  return { diff: lines.slice(0, kept).join('\n') + note, truncated: true };
}

const RULE0_ASSOCIATIONS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

/**
 * Rule 0 of the consensus, computed in code (SPEC §5): a reviewer's latest decisive
 * review (APPROVED, CHANGES_REQUESTED or DISMISSED; comments do not change it) counts
 * when it requests changes and the reviewer is an owner, member or collaborator.
 */
export async function getReviewState(octokit: Octokit, repo: RepoRef, number: number): Promise<ReviewState> {
  const reviews = await octokit.paginate(octokit.rest.pulls.listReviews, { ...repo, pull_number: number, per_page: 100 });
  return computeReviewState(
    reviews.map((r) => ({ login: r.user?.login ?? '', state: r.state, association: r.author_association, submittedAt: r.submitted_at ?? '' })),
  );
}

export function computeReviewState(reviews: { login: string; state: string; association: string; submittedAt: string }[]): ReviewState {
  const latest = new Map<string, { state: string; association: string }>();
  const ordered = [...reviews].sort((a, b) => a.submittedAt.localeCompare(b.submittedAt));
  for (const r of ordered) {
    if (!r.login || !['APPROVED', 'CHANGES_REQUESTED', 'DISMISSED'].includes(r.state)) continue;
    latest.set(r.login, { state: r.state, association: r.association });
  }
  const changesRequestedBy = [...latest.entries()]
    .filter(([, v]) => v.state === 'CHANGES_REQUESTED' && RULE0_ASSOCIATIONS.has(v.association))
    .map(([login, v]) => ({ login, association: v.association }));
  return { hasChangesRequested: changesRequestedBy.length > 0, changesRequestedBy };
}
