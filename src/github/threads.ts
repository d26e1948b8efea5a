// Unresolved review threads through GraphQL: 100 a page, at most 3 pages;
// more than that sets threadsTruncated, which blocks fixing. The first page also carries the
// first 100 reviews, so a round asks GitHub once for both; the
// same query, without the threads, reads the reviews past 100.
import type { Octokit } from './client.js';
import type { RepoRef, ReviewThread } from '../domain/pull-request.js';

export const REVIEW_THREADS_QUERY = /* GraphQL */ `
  query ReviewThreads(
    $owner: String!
    $name: String!
    $number: Int!
    $after: String
    $reviewsAfter: String
    $withReviews: Boolean!
    $withThreads: Boolean!
  ) {
    repository(owner: $owner, name: $name) {
      pullRequest(number: $number) {
        reviews(first: 100, after: $reviewsAfter) @include(if: $withReviews) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            state
            author {
              login
            }
            authorAssociation
            submittedAt
          }
        }
        reviewThreads(first: 100, after: $after) @include(if: $withThreads) {
          totalCount
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            id
            isResolved
            resolvedBy {
              login
            }
            isOutdated
            path
            line
            comments(first: 50) {
              totalCount
              nodes {
                ...ThreadComment
              }
            }
            latestComments: comments(last: 50) {
              nodes {
                ...ThreadComment
              }
            }
          }
        }
      }
    }
  }

  fragment ThreadComment on PullRequestReviewComment {
    id
    databaseId
    body
    author {
      __typename
      login
    }
    authorAssociation
    path
    line
    createdAt
  }
`;

const MAX_THREAD_PAGES = 3;

/** A review as the maintainer veto reads it (pull-request.ts computeReviewState). */
interface ReviewEntry {
  login: string;
  state: string;
  association: string;
  submittedAt: string;
}

interface ReviewsConnection {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: { state: string; author: { login: string } | null; authorAssociation: string; submittedAt: string | null }[];
}

interface ThreadComment {
  id: string;
  databaseId: number | null;
  body: string;
  author: { __typename?: string; login: string } | null;
  authorAssociation: string;
  path: string | null;
  line: number | null;
  createdAt: string;
}

interface ThreadsPage {
  repository: {
    pullRequest: {
      reviews?: ReviewsConnection;
      reviewThreads?: {
        totalCount: number;
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: {
          id: string;
          isResolved: boolean;
          resolvedBy: { login: string } | null;
          isOutdated: boolean;
          path: string | null;
          line: number | null;
          comments: { totalCount: number; nodes: ThreadComment[] };
          latestComments: { nodes: ThreadComment[] };
        }[];
      };
    } | null;
  } | null;
}

export interface ThreadsAndReviews {
  threads: ReviewThread[];
  totalCount: number;
  truncated: boolean;
  /** Every review of the PR, in GitHub's order. */
  reviews: ReviewEntry[];
}

export async function getReviewThreads(octokit: Octokit, repo: RepoRef, number: number): Promise<ThreadsAndReviews> {
  const vars = { owner: repo.owner, name: repo.repo, number };
  const threads: ReviewThread[] = [];
  const reviews: ReviewEntry[] = [];
  let reviewsAfter: string | null = null;
  let after: string | null = null;
  let totalCount = 0;
  let truncated = true;
  for (let page = 0; page < MAX_THREAD_PAGES; page++) {
    const pageVars = { ...vars, after, reviewsAfter: null, withReviews: page === 0, withThreads: true };
    const data: ThreadsPage = await octokit.graphql<ThreadsPage>(REVIEW_THREADS_QUERY, pageVars);
    const pr = data.repository?.pullRequest;
    if (pr?.reviews) reviewsAfter = addReviews(reviews, pr.reviews);
    const conn = pr?.reviewThreads;
    // No PR in the answer: read as before this query carried reviews, truncated (fixing blocked).
    if (!conn) break;
    totalCount = conn.totalCount;
    for (const n of conn.nodes) {
      // The first comments say whose thread it is; the latest, what was said last (what the action
      // answered already). A thread of more than 100 has a gap between them.
      const seen = new Set(n.comments.nodes.map((c) => c.id));
      const read = [...n.comments.nodes, ...n.latestComments.nodes.filter((c) => !seen.has(c.id))];
      // An App's comment (a bot token) is said so: the action answers people, never another bot.
      const comments = read.map((c) => ({
        ...c,
        author: c.author?.login ?? null,
        ...(c.author?.__typename === 'Bot' ? { authorIsBot: true } : {}),
      }));
      threads.push({
        id: n.id,
        isResolved: n.isResolved,
        resolvedBy: n.resolvedBy?.login ?? null,
        isOutdated: n.isOutdated,
        path: n.path,
        line: n.line,
        comments,
        commentCount: n.comments.totalCount,
      });
    }
    if (!conn.pageInfo.hasNextPage) {
      truncated = false;
      break;
    }
    after = conn.pageInfo.endCursor;
  }
  // The reviews past the first 100 (a PR with that many is rare).
  while (reviewsAfter) {
    const more = { ...vars, after: null, reviewsAfter, withReviews: true, withThreads: false };
    const data: ThreadsPage = await octokit.graphql<ThreadsPage>(REVIEW_THREADS_QUERY, more);
    const conn = data.repository?.pullRequest?.reviews;
    reviewsAfter = conn ? addReviews(reviews, conn) : null;
  }
  return { threads, totalCount, truncated, reviews };
}

/** Appends a page of reviews; returns the cursor of the next page, or null. */
function addReviews(into: ReviewEntry[], conn: ReviewsConnection): string | null {
  for (const r of conn.nodes) {
    // A pending review (the viewer's own draft) has no submittedAt and decides nothing.
    into.push({
      login: r.author?.login ?? '',
      state: r.state,
      association: r.authorAssociation,
      submittedAt: r.submittedAt ?? '',
    });
  }
  return conn.pageInfo.hasNextPage ? conn.pageInfo.endCursor : null;
}
