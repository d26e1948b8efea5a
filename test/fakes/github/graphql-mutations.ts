// The GraphQL mutations the action sends, with GitHub's refusals. None of their
// permission rules is documented; what the fake refuses follows public reports:
// - resolveReviewThread needs contents: write besides pull-requests: write, else FORBIDDEN
//   "Resource not accessible by integration" (github/gh-aw#35726, oven-sh/bun#36959);
// - markPullRequestReadyForReview fails with pull-requests: write alone (cli/cli#8910); a
//   maintainer's guess, confirmed by a user, is contents: write (cli/cli discussion #6924);
// - minimizeComment: pull-requests: write (a read-only token gets FORBIDDEN). Its
//   minimizedReason is the classifier in lower case ("outdated"), per the schema's description.
import { FakeGraphQLError, pullNode, threadNode } from './graphql-nodes.js';
import type { Ctx } from './http.js';
import { nodeId } from './ids.js';
import { FORBIDDEN_MESSAGE } from './token-access.js';
import type { TokenScope } from './types.js';

type Node = Record<string, unknown>;

function need(ctx: Ctx, ...scopes: TokenScope[]): void {
  if (scopes.some((s) => !ctx.state.canWrite(s))) throw new FakeGraphQLError('FORBIDDEN', FORBIDDEN_MESSAGE);
}

const notFound = (id: string): FakeGraphQLError =>
  new FakeGraphQLError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);

export function mutations(ctx: Ctx): Node {
  const { state } = ctx;
  return {
    resolveReviewThread: ({ input }: { input: { threadId: string; clientMutationId?: string } }) => {
      need(ctx, 'contents', 'pull_requests');
      const t = state.threadList.find((x) => x.id === input.threadId);
      if (!t) throw notFound(input.threadId);
      state.resolveThread(t.id, true, state.tokenActor().login);
      return { clientMutationId: input.clientMutationId ?? null, thread: threadNode(ctx, t) };
    },
    minimizeComment: ({ input }: { input: { subjectId: string; classifier: string; clientMutationId?: string } }) => {
      need(ctx, 'pull_requests');
      const c = state.issueComments.find((x) => nodeId('IC', x.id) === input.subjectId);
      if (!c) throw notFound(input.subjectId);
      c.minimizedReason = input.classifier.toLowerCase();
      return {
        clientMutationId: input.clientMutationId ?? null,
        minimizedComment: {
          __typename: 'IssueComment',
          isMinimized: true,
          minimizedReason: c.minimizedReason,
          viewerCanMinimize: true,
        },
      };
    },
    markPullRequestReadyForReview: ({ input }: { input: { pullRequestId: string; clientMutationId?: string } }) => {
      need(ctx, 'contents', 'pull_requests');
      const pull = [...state.pulls.values()].find((p) => nodeId('PR', p.id) === input.pullRequestId);
      if (!pull) throw notFound(input.pullRequestId);
      // What GitHub answers for a PR that is not a draft is not documented; the action checks first.
      state.updatePull(pull.number, { draft: false });
      return { clientMutationId: input.clientMutationId ?? null, pullRequest: pullNode(ctx, pull) };
    },
  };
}
