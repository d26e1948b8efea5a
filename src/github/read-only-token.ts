// A token that may not write: known from the event before anything is written, or from
// GitHub's first refusal. Either way the run goes on review-only (job summary and
// annotations), never attempts another write, and says how to get comments.
import type { TokenIdentity } from './identity.js';

const PULL_REQUEST_TARGET_DOCS = [
  'https://docs.github.com/en/actions/reference/security/securely-using-pull_request_target',
  'https://docs.github.com/en/actions/reference/workflows-and-actions/events-that-trigger-workflows' +
    '#pull_request_target',
];

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface EventFacts {
  eventName: string;
  /** The workflow event payload, as event.ts reads it. */
  payload: Obj;
  identity: TokenIdentity;
}

/**
 * Why the workflow's GITHUB_TOKEN is read-only, or null when nothing says so up front.
 * GitHub's table for GITHUB_TOKEN: "Maximum access for pull requests from public forked
 * repositories: read" for every scope, and "Workflow runs triggered by Dependabot pull requests
 * run as if they are from a forked repository, and will therefore use a read-only GITHUB_TOKEN"
 * (https://docs.github.com/en/actions/reference/github_token-reference). The fork is read from
 * the event, which is what GitHub decided the token from. In a private repository an admin may
 * "Send write tokens to workflows from pull requests", so there only a refusal tells.
 * GET /repos' `permissions` cannot tell: for an installation token it is all false whatever
 * the grant (see permissions.ts).
 */
export function readOnlyFromEvent(facts: EventFacts): string | null {
  // A reply in a fork PR's review thread runs like the fork's pull_request run: read-only, no secrets.
  const forkLike = facts.eventName === 'pull_request' || facts.eventName === 'pull_request_review_comment';
  if (facts.identity.kind !== 'actions' || !forkLike) return null;
  const { payload } = facts;
  if (str(obj(payload.sender).login).toLowerCase() === 'dependabot[bot]') {
    return 'GitHub gives pull_request jobs started by Dependabot a read-only GITHUB_TOKEN';
  }
  const pr = obj(payload.pull_request);
  const base = str(obj(obj(pr.base).repo).full_name) || str(obj(payload.repository).full_name);
  const head = str(obj(obj(pr.head).repo).full_name);
  if (!base || head.toLowerCase() === base.toLowerCase()) return null;
  if (obj(payload.repository).private !== false) return null;
  const from = head ? `the fork ${head}` : 'a fork that was deleted';
  return `the workflow runs on ${facts.eventName} for a PR from ${from}, and GitHub gives such a job a read-only token`;
}

export interface WriteRefusal {
  /** The refused request, e.g. `POST /repos/o/r/issues/7/comments`. */
  request: string;
  /** GitHub's message, e.g. "Resource not accessible by integration". */
  message: string;
  /** What the endpoint needs, from the x-accepted-github-permissions header GitHub sends to App tokens. */
  accepted: string | null;
}

/**
 * A 403 saying the token lacks a permission: "Resource not accessible by integration" for an
 * installation token, "… by personal access token" for a fine-grained PAT. Not a rate limit
 * (also 403), which the throttling plugin handles. The header is described in
 * https://github.blog/changelog/2023-08-10-x-accepted-github-permissions-header-for-fine-grained-permission-actors.
 */
export function writeRefusal(e: unknown): WriteRefusal | null {
  const err = e as {
    status?: number;
    message?: string;
    request?: { method?: string; url?: string };
    response?: { headers?: Record<string, string | undefined>; data?: unknown };
  };
  if (err?.status !== 403) return null;
  const message = str(obj(err.response?.data).message) || str(err.message);
  if (!/^Resource not accessible by /.test(message)) return null;
  let path = err.request?.url ?? '';
  try {
    path = new URL(path).pathname;
  } catch {
    // not a URL: keep it as it is
  }
  return {
    request: `${err.request?.method ?? 'request'} ${path}`.trim(),
    message: message.replace(/ - https?:\/\/\S+$/, ''),
    accepted: err.response?.headers?.['x-accepted-github-permissions'] ?? null,
  };
}

export function describeRefusal(r: WriteRefusal): string {
  return `GitHub refused ${r.request}: "${r.message}"${r.accepted ? ` (the endpoint needs ${r.accepted})` : ''}`;
}

/** What a failed GitHub call says in a warning: a refusal as describeRefusal puts it, else the error. */
export function failureText(e: unknown): string {
  const r = writeRefusal(e);
  return r ? describeRefusal(r) : e instanceof Error ? e.message : String(e);
}

/** The log's explanation: why nothing is written, and how to get comments. */
export function readOnlyAdvice(reason: string): string {
  return [
    `The token may not write to this pull request: ${reason}.`,
    'So this run is review-only: the whole report is in the job summary and the findings are annotations;',
    'nothing is commented, pushed or remembered for the next run.',
    'To get comments: give the job the permissions in the README (issues and pull-requests: write). On PRs',
    'from forks GitHub gives pull_request jobs a read-only token whatever the workflow asks; run the workflow',
    "on pull_request_target instead, which gets a write token, with GitHub's precautions: no step in that job",
    "may build or run the PR's code, keep `permissions:` to what the action needs, and leave allow-fork-fixes",
    `off for forks you do not trust. See ${PULL_REQUEST_TARGET_DOCS.join(' and ')}.`,
  ].join('\n');
}
