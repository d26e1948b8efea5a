// Unresolved review threads through GraphQL (SPEC §5): 100 a page, at most 3 pages;
// more than that sets threadsTruncated, which blocks fixing.
import type { Octokit } from './client.js';
import type { RepoRef, ReviewThread } from './types.js';

export const REVIEW_THREADS_QUERY = /* GraphQL */ `
  query ReviewThreads($owner: String!, $name: String!, $number: Int!, $after: String) {
    repository(owner: $owner, name: $name) {
      pullRequest(number: $number) {
        reviewThreads(first: 100, after: $after) {
          totalCount
          pageInfo { hasNextPage endCursor }
          nodes {
            id
            isResolved
            isOutdated
            path
            line
            comments(first: 50) {
              nodes { id databaseId body author { login } authorAssociation path line createdAt }
            }
          }
        }
      }
    }
  }
`;

export const MAX_THREAD_PAGES = 3;

interface ThreadsPage {
  repository: {
    pullRequest: {
      reviewThreads: {
        totalCount: number;
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: {
          id: string;
          isResolved: boolean;
          isOutdated: boolean;
          path: string | null;
          line: number | null;
          comments: { nodes: { id: string; databaseId: number | null; body: string; author: { login: string } | null; authorAssociation: string; path: string | null; line: number | null; createdAt: string }[] };
        }[];
      };
    } | null;
  } | null;
}

export async function getReviewThreads(
  octokit: Octokit,
  repo: RepoRef,
  number: number,
): Promise<{ threads: ReviewThread[]; totalCount: number; truncated: boolean }> {
  const threads: ReviewThread[] = [];
  let after: string | null = null;
  let totalCount = 0;
  for (let page = 0; page < MAX_THREAD_PAGES; page++) {
    const data: ThreadsPage = await octokit.graphql<ThreadsPage>(REVIEW_THREADS_QUERY, { owner: repo.owner, name: repo.repo, number, after });
    const conn = data.repository?.pullRequest?.reviewThreads;
    if (!conn) break;
    totalCount = conn.totalCount;
    for (const n of conn.nodes) {
      threads.push({
        id: n.id,
        isResolved: n.isResolved,
        isOutdated: n.isOutdated,
        path: n.path,
        line: n.line,
        comments: n.comments.nodes.map((c) => ({ ...c, author: c.author?.login ?? null })),
      });
    }
    if (!conn.pageInfo.hasNextPage) return { threads, totalCount, truncated: false };
    after = conn.pageInfo.endCursor;
  }
  return { threads, totalCount, truncated: true };
}
