// The only reader of the workflow event payload: turns the event into
// our own typed PrTarget, or says clearly why this event cannot start a run.
import { readFileSync } from 'node:fs';
import { MARKER } from '../domain/marker.js';
import type { PrTarget, RepoRef } from '../domain/pull-request.js';

const COMMAND_PREFIX = '/review-loop';
/** The command as a whole word: `/review-looping` is not it. */
const COMMAND_RE = /^\/review-loop(?:\s|$)/;

export class UnsupportedEventError extends Error {}
/** The event is valid but asks for nothing (e.g. an ordinary PR comment). */
export class NothingToDoError extends Error {}
/** A `/review-loop` command the action cannot follow as written (e.g. a sha too short to name one commit). */
export class BadCommandError extends Error {}

/** `/review-loop <sha>`: a full sha or a short one of at least 7 hex digits, as `git log --oneline` prints. */
const SHA_ARGUMENT = /^[0-9a-f]{7,40}$/i;
const SHA_EXAMPLE = '/review-loop 3f9a2c1';

/**
 * The sha after the command on its first line, or null when there is none (the rest of the
 * comment is free text: `/review-loop please`). A run of hex digits that is too short or too
 * long to be a sha was meant as one, so it is refused rather than read as "whatever the head is".
 */
export function requestedSha(body: string): string | null {
  const firstLine = body.trimStart().split('\n')[0] ?? '';
  const arg = /^\/review-loop[ \t]+(\S+)/.exec(firstLine)?.[1];
  if (!arg) return null;
  if (SHA_ARGUMENT.test(arg)) return arg.toLowerCase();
  if (/^[0-9a-f]+$/i.test(arg) && /\d/.test(arg)) {
    throw new BadCommandError(
      `Refused: "/review-loop ${arg}" names a commit with ${arg.length} hex digits; a sha needs 7 to 40. ` +
        `Give the head you reviewed, e.g. "${SHA_EXAMPLE}" or its full 40-digit sha.`,
    );
  }
  return null;
}

export interface EventInput {
  eventName: string;
  payload: Record<string, unknown>;
  /** The `pr` input (workflow_dispatch). */
  prInput?: number;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);

export function readEvent(env: NodeJS.ProcessEnv): { eventName: string; payload: Obj } {
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  const path = env.GITHUB_EVENT_PATH;
  if (!eventName)
    throw new UnsupportedEventError('GITHUB_EVENT_NAME is not set: this action runs inside a GitHub Actions workflow.');
  if (!path) return { eventName, payload: {} };
  return { eventName, payload: obj(JSON.parse(readFileSync(path, 'utf8'))) };
}

export function repoFromEnv(env: NodeJS.ProcessEnv): RepoRef {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  if (!owner || !repo)
    throw new UnsupportedEventError(
      `GITHUB_REPOSITORY must look like "owner/repo"; got "${env.GITHUB_REPOSITORY ?? ''}".`,
    );
  return { owner, repo };
}

/**
 * `workflow_run` (completed, conclusion failure): the failing checks of a PR's head get a fix
 * round. GitHub lists the PR in `workflow_run.pull_requests` only when its head branch is in this
 * repository (empty for a fork's PR: actions/runner#3444, github/docs#22501), and a fork's PR is
 * review-only anyway; so a run without a PR asks for nothing.
 */
function workflowRunTarget(payload: Obj, sender: string): PrTarget {
  const run = obj(payload.workflow_run);
  const action = str(payload.action);
  if (action !== 'completed') throw new NothingToDoError(`workflow_run "${action}" is not "completed".`);
  const conclusion = str(run.conclusion);
  if (conclusion !== 'failure') {
    throw new NothingToDoError(`The workflow run ended "${conclusion}", not "failure": nothing to fix.`);
  }
  const pr = obj((Array.isArray(run.pull_requests) ? run.pull_requests : [])[0]);
  const number = num(pr.number);
  if (!Number.isInteger(number)) {
    throw new NothingToDoError(
      'The failed workflow run names no pull request (GitHub leaves workflow_run.pull_requests empty for ' +
        'PRs from forks); comment /review-loop on the PR instead.',
    );
  }
  const actor = str(obj(run.triggering_actor).login) || str(obj(run.actor).login) || sender;
  const headSha = str(run.head_sha);
  return { kind: 'workflow_run', eventName: 'workflow_run', number, headSha, workflowPath: str(run.path), actor };
}

/**
 * `pull_request_review_comment` (created): a reply in a review thread, which waits for an answer.
 * The fields read, as GitHub's webhook schema gives them (github/rest-api-description,
 * `webhook-pull-request-review-comment-created`, from which
 * test/fixtures/events/pull_request_review_comment.created.json is derived):
 * `action` (created, edited or deleted), `comment.in_reply_to_id` ("The comment ID to reply to",
 * absent on a thread's first comment), `comment.user.login` and `.type` (Bot, User or Organization),
 * `pull_request.number` and `pull_request.head.sha`. An edit is never answered: the reply was
 * answered as first written, and an edit loop would cost a model call per keystroke saved.
 * A bot's reply, or one carrying the action's mark, ends here: the action never answers itself.
 */
function threadReplyTarget(payload: Obj, sender: string): PrTarget {
  const action = str(payload.action);
  if (action !== 'created') {
    throw new NothingToDoError(`Review comment action "${action}" is ignored: only a new reply is answered.`);
  }
  const pr = obj(payload.pull_request);
  const number = num(pr.number);
  if (!Number.isInteger(number)) {
    throw new UnsupportedEventError('The pull_request_review_comment payload has no pull_request.number.');
  }
  const comment = obj(payload.comment);
  const inReplyToId = num(comment.in_reply_to_id);
  if (!Number.isInteger(inReplyToId)) {
    throw new NothingToDoError(
      "The review comment starts a thread: only a reply in one of the action's threads is answered.",
    );
  }
  const user = obj(comment.user);
  const actor = str(user.login) || sender;
  const actorType = str(user.type);
  if (actorType === 'Bot' || /\[bot\]$/i.test(actor)) {
    throw new NothingToDoError(`The reply is by a bot (${actor}): only people's replies are answered.`);
  }
  const body = str(comment.body);
  if (body.includes(MARKER)) {
    throw new NothingToDoError("The reply carries the action's mark: the action never answers itself.");
  }
  return {
    kind: 'thread_reply',
    eventName: 'pull_request_review_comment',
    number,
    headSha: str(obj(pr.head).sha),
    actor,
    actorType,
    commentId: num(comment.id),
    inReplyToId,
    commentBody: body,
  };
}

export function parsePrTarget(input: EventInput): PrTarget {
  const { eventName, payload } = input;
  const sender = obj(payload.sender);
  const actor = str(sender.login);
  switch (eventName) {
    case 'pull_request':
    case 'pull_request_target': {
      const pr = obj(payload.pull_request);
      const number = num(pr.number ?? payload.number);
      if (!Number.isInteger(number))
        throw new UnsupportedEventError(`The ${eventName} payload has no pull_request.number.`);
      const head = obj(pr.head);
      return {
        kind: 'pull_request',
        eventName,
        action: str(payload.action),
        number,
        headSha: str(head.sha),
        headRef: str(head.ref),
        actor,
      };
    }
    case 'workflow_dispatch': {
      if (!input.prInput) {
        throw new UnsupportedEventError(
          'workflow_dispatch needs the input "pr" (the pull request number). ' +
            'Example:\n  with:\n    pr: ${{ inputs.pr }}',
        );
      }
      return { kind: 'workflow_dispatch', eventName, number: input.prInput, actor };
    }
    case 'issue_comment': {
      const issue = obj(payload.issue);
      const comment = obj(payload.comment);
      if (!issue.pull_request) throw new NothingToDoError('The comment is on an issue, not a pull request.');
      const body = str(comment.body);
      if (!COMMAND_RE.test(body.trimStart()))
        throw new NothingToDoError(`The comment does not start with ${COMMAND_PREFIX}.`);
      if (str(payload.action) && str(payload.action) !== 'created')
        throw new NothingToDoError(`Comment action "${str(payload.action)}" is ignored.`);
      const user = obj(comment.user);
      return {
        kind: 'issue_comment',
        eventName,
        number: num(issue.number),
        actor: str(user.login) || actor,
        actorType: str(user.type) || str(sender.type),
        commentBody: body,
        commentId: num(comment.id),
        requestedSha: requestedSha(body),
        commentCreatedAt: str(comment.created_at) || null,
      };
    }
    case 'workflow_run':
      return workflowRunTarget(payload, actor);
    case 'pull_request_review_comment':
      return threadReplyTarget(payload, actor);
    default:
      throw new UnsupportedEventError(
        `Event "${eventName}" is not supported. Use pull_request, pull_request_target, ` +
          'workflow_dispatch (with input "pr"), issue_comment, workflow_run or pull_request_review_comment.',
      );
  }
}
