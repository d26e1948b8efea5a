// Minimizing our superseded report comments as outdated: never edited, never deleted,
// one click away. GraphQL minimizeComment with classifier OUTDATED; which of them are minimized
// already is read in one `nodes(ids:)` query, so a comment is minimized once.
import type { Octokit } from './client.js';

const STATE = /* GraphQL */ `
  query Minimized($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on IssueComment {
        id
        isMinimized
      }
    }
  }
`;

const MINIMIZE = /* GraphQL */ `
  mutation Minimize($id: ID!) {
    minimizeComment(input: { subjectId: $id, classifier: OUTDATED }) {
      minimizedComment {
        isMinimized
      }
    }
  }
`;

/** The comments of `ids` not minimized yet (at most 100 are asked, the newest). */
export async function notMinimized(octokit: Octokit, ids: string[]): Promise<string[]> {
  const asked = ids.slice(-100);
  if (asked.length === 0) return [];
  type Answer = { nodes: ({ id?: string; isMinimized?: boolean } | null)[] };
  const data = await octokit.graphql<Answer>(STATE, { ids: asked });
  return data.nodes.filter((n) => n?.id && n.isMinimized === false).map((n) => n!.id!);
}

export async function minimizeAsOutdated(octokit: Octokit, id: string): Promise<void> {
  await octokit.graphql(MINIMIZE, { id });
}
