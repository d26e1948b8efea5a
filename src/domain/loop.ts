// What the loop hands its reports and the coordinator: how the run ends, and what it did.
import type { Counts, Finding, FixCheck, FixedFingerprint, KnownDecision, ReviewRoundRecord } from './findings.js';
import type { FixRoundRecord } from './fix.js';
import type { RunStatus } from './run-status.js';

export interface LoopEnd {
  status: RunStatus;
  message: string;
  /** What remains unfixed, when the run ends after a pushed fix (listed in that report). */
  remaining?: Finding[];
}

/** What a fix report needs from the review before it. */
export interface FixedByReview {
  /** Fingerprints of the findings this fix pushed a fix for (none unless it was pushed). */
  fixed: FixedFingerprint[];
  /** What every finding of the review was about: a thread of ours is found by it when its id moved. */
  about: FixedFingerprint[];
  counts: Counts;
  /** Every decision the run knows of after this fix (its hand-backs included): the fix report keeps them. */
  known?: KnownDecision[];
  /** Findings this fix handed back that are decisions now: their threads ask the question. */
  decisions?: (FixedFingerprint & { question: string; options: string[]; by: 'fixer' | 'reviewers' })[];
}

export interface LoopResult {
  status: RunStatus;
  message: string;
  rounds: { review: ReviewRoundRecord; fix: FixRoundRecord | null }[];
  headSha: string;
  /** Findings of the last review that remain (active and stuck). */
  remaining: Finding[];
  stuck: Finding[];
  last: ReviewRoundRecord | null;
  /** Remaining findings that are open decisions, waiting for the maintainers' answer. */
  decisions?: Finding[];
  /**
   * Pushed fixes no other model has checked when the run ends: its reviewers failed, or the fix came
   * in the last round (no review after it). They keep the PR from the converged label.
   */
  unchecked?: FixCheck[];
}
