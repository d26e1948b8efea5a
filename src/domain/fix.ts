// What one fix attempt produced: the fix report and the loop read it. Pure data.
import type { AgentRun } from './agent-run.js';

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

/**
 * A finding the action saw reproduced: the confirmer's test, which the action ran on the
 * PR head with only that test added and saw fail, and after the fix saw pass.
 */
export interface ConfirmedFinding {
  findingId: string;
  testFile: string | null;
  /** Every file the confirmer wrote: a fix may change none of them. */
  files: string[];
  testName: string | null;
  /** The command that runs just that test. */
  command: string;
  /** The tail of its failing output before the fix (secrets redacted). */
  failedOutput: string;
  /** The fix commit after which the test passed; null until it did. */
  passesAfter: string | null;
  /** Why it did not pass after the fix (its output's tail, or a changed test file). */
  failedAfter?: string;
}

/** What one fix attempt produced; the fix report is rendered from this. */
export interface FixRoundRecord {
  round: number;
  outcome: FixOutcome;
  fixer: AgentRun | null;
  fixed: { findingId: string; description: string }[];
  rejected: { findingId: string; reason: string }[];
  /** Neither done nor wrong: an optional issue left for later, a duplicate of another id; still open. */
  deferred?: { findingId: string; reason: string }[];
  /** Handed back as a choice only the maintainers can make, with the fixer's options (review/decisions.ts). */
  handedBack?: { findingId: string; question: string; options: string[] }[];
  /** The squashed commit pushed (or that would be pushed on dry-run). */
  commitSha: string | null;
  previousHeadSha: string;
  verify: VerifyResult[];
  /** The fix was not verified because the workflow set `verify: none`. */
  unverified?: true;
  /** Findings the confirm step could not reproduce with a failing test; not fixed. */
  unconfirmed?: { findingId: string; reason: string }[];
  /** Findings confirmed by a failing test the action ran itself, which goes into the fix commit. */
  confirmed?: ConfirmedFinding[];
  /** One-line human explanation of the outcome. */
  message: string;
  /**
   * Each model (`agent:model`) whose answer wrote the fix, in order: the fixer's own, or a fallback
   * that answered in its place (a gate loop may call both). Who may check the fix depends on it.
   */
  fixModels?: string[];
  /** The gate's model (`agent:model`), when a gate approved the fix that was pushed: it is checked. */
  gateApproved?: string;
}
