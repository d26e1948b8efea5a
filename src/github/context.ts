// The only reader of the workflow event payload (STYLE habit 3): turns the event into
// our own typed PrTarget, or says clearly why this event cannot start a run.
import { readFileSync } from 'node:fs';
import type { PrTarget, RepoRef } from './types.js';

export const COMMAND_PREFIX = '/review-loop';
/** The command as a whole word: `/review-looping` is not it. */
const COMMAND_RE = /^\/review-loop(?:\s|$)/;

export class UnsupportedEventError extends Error {}
/** The event is valid but asks for nothing (e.g. an ordinary PR comment). */
export class NothingToDoError extends Error {}

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
  if (!eventName) throw new UnsupportedEventError('GITHUB_EVENT_NAME is not set: this action runs inside a GitHub Actions workflow.');
  if (!path) return { eventName, payload: {} };
  return { eventName, payload: obj(JSON.parse(readFileSync(path, 'utf8'))) };
}

export function repoFromEnv(env: NodeJS.ProcessEnv): RepoRef {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  if (!owner || !repo) throw new UnsupportedEventError(`GITHUB_REPOSITORY must look like "owner/repo"; got "${env.GITHUB_REPOSITORY ?? ''}".`);
  return { owner, repo };
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
      if (!Number.isInteger(number)) throw new UnsupportedEventError(`The ${eventName} payload has no pull_request.number.`);
      const head = obj(pr.head);
      return { kind: 'pull_request', eventName, action: str(payload.action), number, headSha: str(head.sha), headRef: str(head.ref), actor };
    }
    case 'workflow_dispatch': {
      if (!input.prInput) {
        throw new UnsupportedEventError('workflow_dispatch needs the input "pr" (the pull request number). Example:\n  with:\n    pr: ${{ inputs.pr }}');
      }
      return { kind: 'workflow_dispatch', eventName, number: input.prInput, actor };
    }
    case 'issue_comment': {
      const issue = obj(payload.issue);
      const comment = obj(payload.comment);
      if (!issue.pull_request) throw new NothingToDoError('The comment is on an issue, not a pull request.');
      const body = str(comment.body);
      if (!COMMAND_RE.test(body.trimStart())) throw new NothingToDoError(`The comment does not start with ${COMMAND_PREFIX}.`);
      if (str(payload.action) && str(payload.action) !== 'created') throw new NothingToDoError(`Comment action "${str(payload.action)}" is ignored.`);
      const user = obj(comment.user);
      return {
        kind: 'issue_comment',
        eventName,
        number: num(issue.number),
        actor: str(user.login) || actor,
        actorType: str(user.type) || str(sender.type),
        commentBody: body,
        commentId: num(comment.id),
      };
    }
    default:
      throw new UnsupportedEventError(
        `Event "${eventName}" is not supported. Use pull_request, pull_request_target, workflow_dispatch (with input "pr") or issue_comment.`,
      );
  }
}
