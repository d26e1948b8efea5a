// A reply in a review thread (pull_request_review_comment) starts a run that only answers: it must
// end at once, before a checkout, a sandbox or a model, when there is nothing it may answer. The
// bot and mark checks come first, from the payload alone (github/event.ts); these need the token's
// identity and then the PR's threads.
import type { PrTarget, ReviewThread } from '../domain/pull-request.js';
import type { TokenIdentity } from '../github/identity.js';
import { readOnlyFromEvent } from '../github/read-only-token.js';
import { ownThreads, sameLogin } from '../review/own-threads.js';
import { SkipRun } from './checks.js';

type Obj = Record<string, unknown>;

/**
 * Ends a reply run that may not answer: a reply the token itself wrote (a personal access token
 * posts as its user, whom no bot check catches), or a token that may not write (a fork PR's
 * reply: GitHub gives that job a read-only token and no secrets; the reply is answered by the
 * next labelled or dispatched run, which has both).
 */
export function checkReplyRun(target: PrTarget, identity: TokenIdentity, event: { eventName: string; payload: Obj }) {
  if (target.kind !== 'thread_reply') return;
  if (sameLogin(target.actor, identity.login)) {
    throw new SkipRun(`The reply is by ${identity.login}, the action's own identity: the action never answers itself.`);
  }
  const readOnly = readOnlyFromEvent({ ...event, identity });
  if (readOnly) {
    throw new SkipRun(
      `A reply in a review thread, but the token may not write: ${readOnly}. Nothing is answered now; ` +
        'the reply is answered by the next run with a write token (fork-review.yml: the label, or a dispatch).',
    );
  }
}

/**
 * Ends a reply run whose reply is not in one of the action's own finding threads (a thread a
 * person started, or another bot's): only the action's threads are answered. Pure.
 */
export function replyOutsideOwnThreads(
  target: PrTarget,
  threads: readonly ReviewThread[] | null,
  ownLogin: string,
): SkipRun | null {
  if (target.kind !== 'thread_reply') return null;
  if (!threads) return new SkipRun('A reply in a review thread, but thread-answers is false: nothing is answered.');
  const own = new Set(ownThreads(threads, ownLogin).map((t) => t.id));
  const ids = new Set([target.commentId, target.inReplyToId]);
  const thread = threads.find((t) => t.comments.some((c) => c.databaseId !== null && ids.has(c.databaseId)));
  if (thread && own.has(thread.id)) return null;
  return new SkipRun(
    `The reply (comment ${target.commentId}) is not in a thread the action started: only replies in its ` +
      'own finding threads are answered.',
  );
}
