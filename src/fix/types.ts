// What one fix attempt produced: the fix report and the loop read it. Pure data.
import type { AgentRun } from '../roles/types.js';

export interface VerifyResult {
  command: string;
  exitCode: number | null;
  durationMs: number;
  /** Last lines of combined output, already redacted. */
  outputTail: string;
  timedOut: boolean;
}

export type FixOutcome =
  | 'pushed'
  | 'dry-run'
  | 'fixer-failed'
  | 'verify-failed'
  | 'gate-blocked'
  | 'push-rejected'
  | 'no-changes'
  | 'refused'
  /** max-tokens or max-cost-usd was reached before a call of the round could start. */
  | 'budget';

/** What one fix attempt produced; the fix report is rendered from this. */
export interface FixRoundRecord {
  round: number;
  outcome: FixOutcome;
  fixer: AgentRun | null;
  fixed: { findingId: string; description: string }[];
  rejected: { findingId: string; reason: string }[];
  /** The squashed commit pushed (or that would be pushed on dry-run). */
  commitSha: string | null;
  previousHeadSha: string;
  verify: VerifyResult[];
  /** Findings the confirm step could not reproduce with a failing test; not fixed. */
  unconfirmed?: { findingId: string; reason: string }[];
  /** Findings confirmed by a failing test, which goes into the fix commit. */
  confirmed?: { findingId: string; testFile: string | null }[];
  /** One-line human explanation of the outcome. */
  message: string;
}
