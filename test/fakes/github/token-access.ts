// What a read-only token is refused. GitHub gives a `pull_request` job from a fork a
// read-only GITHUB_TOKEN ("Maximum access for pull requests from public forked repositories":
// read, https://docs.github.com/en/actions/reference/github_token-reference); every write
// then fails with 403 "Resource not accessible by integration" (e.g.
// marocchino/sticky-pull-request-comment#227, hasura/comment-progress#9).
// REST answers carry x-accepted-github-permissions, the permissions the endpoint needs
// (https://github.blog/changelog/2023-08-10-x-accepted-github-permissions-header-for-fine-grained-permission-actors).
import { Kind, getOperationAST, parse } from 'graphql';
import type { FieldNode } from 'graphql';
import { DOCS, apiError, json } from './http.js';
import type { Reply } from './http.js';

const REFUSED = 'Resource not accessible by integration';

interface WriteEndpoint {
  method: string;
  path: RegExp;
  accepted: string;
  doc: string;
}

/** Endpoints whose needed permissions we know ("Permissions required for GitHub Apps" on docs.github.com). */
const KNOWN: WriteEndpoint[] = [
  {
    method: 'POST',
    path: /^\/repos\/[^/]+\/[^/]+\/issues\/[^/]+\/comments\/?$/,
    accepted: 'issues=write; pull_requests=write',
    doc: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
  },
  {
    method: 'POST',
    path: /^\/repos\/[^/]+\/[^/]+\/pulls\/[^/]+\/(reviews|comments\/[^/]+\/replies)\/?$/,
    accepted: 'pull_requests=write',
    doc: 'https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request',
  },
  {
    method: 'POST',
    path: /^\/repos\/[^/]+\/[^/]+\/actions\/workflows\/[^/]+\/dispatches\/?$/,
    accepted: 'actions=write',
    doc: 'https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event',
  },
];

/**
 * A write the token's permissions do not cover (a workflow's `permissions:` without it): the
 * same 403 as for a read-only token, naming what the endpoint accepts.
 */
export function scopeRefusal(accepted: string, doc: string): Reply {
  return { ...apiError(403, REFUSED, doc), headers: { 'x-accepted-github-permissions': accepted } };
}

/** The GraphQL error of a mutation the token's permissions do not cover. */
export const FORBIDDEN_MESSAGE = REFUSED;

/** POST /graphql is how every GraphQL query is sent: it only writes through a mutation. */
export function isRestWrite(method: string, path: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method) && !(method === 'POST' && path === '/graphql');
}

export function restRefusal(method: string, path: string): Reply {
  const known = KNOWN.find((e) => e.method === method && e.path.test(path));
  const reply = apiError(403, REFUSED, known?.doc ?? DOCS);
  return known ? { ...reply, headers: { 'x-accepted-github-permissions': known.accepted } } : reply;
}

/**
 * A mutation sent with a read-only token: HTTP 200, each mutation field null and a
 * FORBIDDEN error for it (sourcegraph/codenotify#19: "graphql error: Resource not accessible
 * by integration"). Null when the document is no mutation (or does not parse: graphql() reports that).
 */
export function mutationRefusal(query: string, operationName: string | null): Reply | null {
  let op;
  try {
    op = getOperationAST(parse(query), operationName);
  } catch {
    return null;
  }
  if (op?.operation !== 'mutation') return null;
  const fields = op.selectionSet.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD);
  const key = (f: FieldNode) => f.alias?.value ?? f.name.value;
  return json(200, {
    data: Object.fromEntries(fields.map((f) => [key(f), null])),
    errors: fields.map((f) => ({
      type: 'FORBIDDEN',
      path: [key(f)],
      locations: f.loc ? [{ line: f.loc.startToken.line, column: f.loc.startToken.column }] : [],
      message: REFUSED,
    })),
  });
}
