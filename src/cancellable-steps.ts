// The loop's steps for a run that may be cancelled: once it is, no step starts; steps that only
// wait (for checks, for a head) stop waiting; a review or fix under way ends as its agents are
// stopped, and what it found is not acted on. A push that had started is left to finish (a push is
// atomic): then the head is awaited and the fix report posted as usual, so the next run knows the
// commit for the action's own, and only then does the run stop.
import { RunCancelled, type Cancellation } from './cancellation.js';
import type { LoopSteps } from './loop.js';

export interface CancellableSteps {
  steps: LoopSteps;
  /** The fix commit a push landed in this run before it was cancelled, if any. */
  landed(): string | null;
}

export function cancellableSteps(steps: LoopSteps, c: Cancellation): CancellableSteps {
  let landed: string | null = null;
  /** Starts `step` only if not cancelled, and stops waiting for it once cancelled. */
  const waiting =
    <A extends unknown[], R>(step: (...a: A) => Promise<R>) =>
    (...a: A): Promise<R> => {
      c.check();
      return Promise.race([step(...a), aborted<R>(c.signal)]);
    };
  /** Starts `step` only if not cancelled, lets it end, and drops its result if cancelled meanwhile. */
  const finishing =
    <A extends unknown[], R>(step: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      c.check();
      const result = await step(...a);
      c.check();
      return result;
    };
  return {
    landed: () => landed,
    steps: {
      ...steps,
      loadContext: finishing(steps.loadContext),
      review: finishing(steps.review),
      publishReview: finishing(steps.publishReview),
      async fix(ctx, round, findings) {
        c.check();
        const rec = await steps.fix(ctx, round, findings);
        if (rec.outcome === 'pushed' && rec.commitSha) landed = rec.commitSha;
        else c.check();
        return rec;
      },
      // After a landed push, its head and its report go through whatever happens.
      waitForHead: (sha) => (landed === sha ? steps.waitForHead(sha) : waiting(steps.waitForHead)(sha)),
      async publishFix(rec, end, review) {
        if (!(landed && rec.commitSha === landed)) c.check();
        await steps.publishFix(rec, end, review);
        c.check();
      },
      hook: finishing(steps.hook),
      afterPush: finishing(steps.afterPush),
      checks: waiting(steps.checks),
    },
  };
}

function aborted<T>(signal: AbortSignal): Promise<T> {
  return new Promise<T>((_resolve, reject) => {
    const cancelled = () =>
      reject(signal.reason instanceof RunCancelled ? signal.reason : new RunCancelled('a signal'));
    if (signal.aborted) cancelled();
    else signal.addEventListener('abort', cancelled, { once: true });
  });
}
