// The deterministic consensus of a round, computed from its findings and the review state, never
// asked of a model (docs/decisions/0004-deterministic-consensus.md). Pure.
import type { ReviewState } from '../domain/pull-request.js';
import type { Consensus, Counts } from '../domain/findings.js';

export function consensus(counts: Counts, reviewState: ReviewState): Consensus {
  if (reviewState.hasChangesRequested) return 'request_changes';
  if (counts.p0 > 0) return 'needs_major_work';
  if (counts.p1 > 0 || counts.p2 > 0) return 'request_changes';
  return 'approve';
}

export function isConverged(counts: Counts, unresolvedThreads: number, c: Consensus): boolean {
  return counts.p0 === 0 && counts.p1 === 0 && counts.p2 === 0 && unresolvedThreads === 0 && c === 'approve';
}

export type FailOn = 'none' | 'P0' | 'P1' | 'P2';

/** True when findings at or above the fail-on threshold remain. */
export function breachesFailOn(counts: Counts, failOn: FailOn): boolean {
  switch (failOn) {
    case 'none':
      return false;
    case 'P0':
      return counts.p0 > 0;
    case 'P1':
      return counts.p0 + counts.p1 > 0;
    case 'P2':
      return counts.p0 + counts.p1 + counts.p2 > 0;
  }
}
