// Handing a converged PR to humans: a label, and a draft marked ready for review.
// Adding a label the repository lacks creates it (github/docs#35718); removing one the PR does
// not carry is 404 "Label does not exist", which is what the action wanted anyway.
// markPullRequestReadyForReview needs contents: write besides pull-requests: write (cli/cli#8910).
import type { Octokit } from './client.js';
import type { RepoRef } from '../domain/pull-request.js';

export async function addLabel(octokit: Octokit, repo: RepoRef, number: number, name: string): Promise<void> {
  await octokit.rest.issues.addLabels({ ...repo, issue_number: number, labels: [name] });
}

/** Removes the label; false when the PR did not carry it. */
export async function removeLabel(octokit: Octokit, repo: RepoRef, number: number, name: string): Promise<boolean> {
  try {
    await octokit.rest.issues.removeLabel({ ...repo, issue_number: number, name });
    return true;
  } catch (e) {
    if ((e as { status?: number }).status === 404) return false;
    throw e;
  }
}

const READY = /* GraphQL */ `
  query PullRequestId($owner: String!, $name: String!, $number: Int!) {
    repository(owner: $owner, name: $name) {
      pullRequest(number: $number) {
        id
        isDraft
      }
    }
  }
`;

const MARK_READY = /* GraphQL */ `
  mutation MarkReady($id: ID!) {
    markPullRequestReadyForReview(input: { pullRequestId: $id }) {
      pullRequest {
        isDraft
      }
    }
  }
`;

/** Marks the PR ready for review when it is (still) a draft; false when it was not one. */
export async function markReady(octokit: Octokit, repo: RepoRef, number: number): Promise<boolean> {
  type Answer = { repository: { pullRequest: { id: string; isDraft: boolean } | null } | null };
  const data = await octokit.graphql<Answer>(READY, { owner: repo.owner, name: repo.repo, number });
  const pr = data.repository?.pullRequest;
  if (!pr?.isDraft) return false;
  await octokit.graphql(MARK_READY, { id: pr.id });
  return true;
}
