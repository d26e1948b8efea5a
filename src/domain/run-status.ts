// How a run ends: the values of the `status` output.
export const RUN_STATUSES = [
  'converged',
  'max-rounds',
  'manual',
  'review-only',
  'skipped',
  'budget',
  'failed',
  'cancelled',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
