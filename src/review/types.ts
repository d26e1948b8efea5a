// Domain values of one round. Pure data: no I/O here.
import type { Priority } from '../agents/envelope.js';
import type { Usage } from '../agents/types.js';

export interface Finding {
  /** Stable id: CAT-<8 hex> for code findings, THREAD-<firstCommentId> for threads. */
  id: string;
  priority: Priority;
  category: string;
  file: string | null;
  line: number | null;
  title: string;
  description: string;
  suggestion: string | null;
  source: { type: 'agent' | 'human'; name: string; reviewId: string | null };
  /** Reviewers (role instance names) that reported this problem. */
  reportedBy: string[];
  /** Set when the finding was fixed in an earlier round and came back. */
  stuck?: boolean;
}

export type AgentStatus = 'ok' | 'failed' | 'skipped';

export interface AgentRun {
  name: string;
  role: string;
  agent: string;
  modelRequested: string;
  modelReported: string | null;
  status: AgentStatus;
  error: string | null;
  durationMs: number;
  usage: Usage;
}

export type Consensus = 'approve' | 'request_changes' | 'needs_major_work';

export interface Counts {
  p0: number;
  p1: number;
  p2: number;
  p3: number;
}

/** What one review round produced; the review report is rendered from this. */
export interface ReviewRoundRecord {
  round: number;
  headSha: string;
  /** At least one reviewer failed while at least one succeeded. */
  partial: boolean;
  agents: AgentRun[];
  /** Code findings (grouped, with reportedBy) and writers' thread findings (source.type human). */
  findings: Finding[];
  /** Findings fixed earlier that came back; excluded from fixing. */
  stuck: Finding[];
  counts: Counts;
  consensus: Consensus;
  /** Unresolved threads started by a writer (OWNER, MEMBER, COLLABORATOR): they block convergence. */
  unresolvedThreads: number;
  /**
   * Unresolved threads by people without write access ("comments from outside contributors"):
   * listed in the report, never fixed, never blocking, not counted for fail-on.
   */
  outsiderThreads?: Finding[];
  threadsTruncated: boolean;
  /** Human review state (rule 0), computed from the API. */
  changesRequestedBy: { login: string; association: string }[];
}

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
  | 'refused';

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
