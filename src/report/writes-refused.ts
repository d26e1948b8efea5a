// GitHub refused the run's first write (a token that may not write, which nothing told up
// front). The loop stops right there: no fixer, no push, no further comment or dispatch; it
// ends review-only on the review whose report was refused (loop.ts).
import type { ReviewRoundRecord } from '../domain/findings.js';

export class WritesRefused extends Error {
  constructor(
    readonly record: ReviewRoundRecord,
    reason: string,
  ) {
    super(`Review only: the token may not write (${reason}).`);
  }
}
