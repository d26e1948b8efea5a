// Pull request reviews on the lines of the diff: one review per round with inline
// comments (event COMMENT only: the action never approves or blocks through a review), replies
// in our own threads, and resolving them (GraphQL resolveReviewThread, which GitHub refuses a
// token without contents: write: github/gh-aw#35726).
import type { Octokit } from './client.js';
import type { RepoRef } from '../domain/pull-request.js';

export interface InlineComment {
  path: string;
  /** The comment's (last) line in the head, on the RIGHT side. */
  line: number;
  /** First line of a multi-line comment. */
  startLine: number | null;
  body: string;
}

export async function postReview(
  octokit: Octokit,
  repo: RepoRef,
  number: number,
  r: { commitId: string; body: string; comments: InlineComment[] },
): Promise<{ id: number; htmlUrl: string }> {
  const comments = r.comments.map((c) => ({
    path: c.path,
    line: c.line,
    side: 'RIGHT' as const,
    body: c.body,
    ...(c.startLine ? { start_line: c.startLine, start_side: 'RIGHT' as const } : {}),
  }));
  const { data } = await octokit.rest.pulls.createReview({
    ...repo,
    pull_number: number,
    commit_id: r.commitId,
    event: 'COMMENT',
    body: r.body,
    comments,
  });
  return { id: data.id, htmlUrl: data.html_url };
}

export async function replyInThread(
  octokit: Octokit,
  repo: RepoRef,
  number: number,
  commentId: number,
  body: string,
): Promise<void> {
  await octokit.rest.pulls.createReplyForReviewComment({ ...repo, pull_number: number, comment_id: commentId, body });
}

const RESOLVE = /* GraphQL */ `
  mutation ResolveThread($id: ID!) {
    resolveReviewThread(input: { threadId: $id }) {
      thread {
        isResolved
      }
    }
  }
`;

export async function resolveThread(octokit: Octokit, threadId: string): Promise<void> {
  await octokit.graphql(RESOLVE, { id: threadId });
}

/** A 422 of the review endpoint: GitHub could not place a comment on the diff ("Line could not be resolved"). */
export function isUnplaceable(e: unknown): boolean {
  return (e as { status?: number }).status === 422;
}
