// GitHub refused the run's first write (a token that may not write, which nothing told up
// front). The loop stops right there: no fixer, no push, no further comment or dispatch. The
// refused write is always the first review report (it is the run's first write, and a token's
// permissions do not change during a run), so the run ends review-only on that review, as it
// would have had the token been known read-only from the start.
import type { LoopResult } from '../loop.js';
import type { FixedFingerprint } from '../review/stuck.js';
import type { ReviewRoundRecord } from '../review/types.js';

export class WritesRefused extends Error {
  constructor(
    readonly record: ReviewRoundRecord,
    reason: string,
  ) {
    super(`Review only: the token may not write (${reason}).`);
  }
}

export function reviewOnlyAfterRefusal(e: WritesRefused, headSha: string, fixed: FixedFingerprint[]): LoopResult {
  const review = e.record;
  return {
    status: 'review-only',
    message: e.message,
    rounds: [{ review, fix: null }],
    headSha,
    fixed,
    remaining: [...review.findings, ...review.stuck],
    stuck: review.stuck,
    last: review,
  };
}
