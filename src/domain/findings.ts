// Domain values of one round. Pure data: no I/O here.
import type { Priority } from './priority.js';
import type { AgentRun } from './agent-run.js';
import type { VerifyResult } from './fix.js';

export interface Finding {
  /** Stable id: CAT-<8 hex> for code findings, THREAD-<firstCommentId> for threads. */
  id: string;
  priority: Priority;
  category: string;
  file: string | null;
  line: number | null;
  /** The last line of the range (≥ line), when the reviewer gave one. */
  endLine?: number | null;
  title: string;
  description: string;
  suggestion: string | null;
  /** The exact new text of lines line..endLine, when the reviewer gave one: a suggestion block. */
  replacement?: string | null;
  /**
   * Every place of a problem found in several spots, the first being file/line above; absent when
   * the finding has one place (review/finding-places.ts).
   */
  locations?: FindingLocation[];
  source: { type: 'agent' | 'human'; name: string; reviewId: string | null };
  /** Reviewers (role instance names) that reported this problem. */
  reportedBy: string[];
  /** Set when the finding was fixed in an earlier round and came back. */
  stuck?: boolean;
  /** Each reviewer's own report of this problem, when several reviewers (or reports) make it up. */
  members?: FindingMember[];
  /** The other members' ids: a fixer or a later round that names one of them means this finding. */
  aliases?: string[];
  /** This reviewer's mark: a choice only the maintainers can make (counted by review/decisions.ts). */
  asked?: DecisionAsk;
  /** The finding is a decision for the maintainers: open, or answered (`chosen`). */
  decision?: Decision;
}

/** A question for the maintainers, with the options the agents see, numbered from 1. */
export interface DecisionAsk {
  question: string;
  options: string[];
}

export interface Decision extends DecisionAsk {
  /** Who made it a decision: the fixer handed it back, or most of the reviewers who reported it. */
  by: 'fixer' | 'reviewers';
  /** The answer, once a person allowed to give it chose an option. */
  answer?: DecisionAnswer;
}

/** What a decision is about, kept across rounds and runs (the review's hidden state). */
export type DecisionFinding = Pick<
  Finding,
  'id' | 'priority' | 'category' | 'file' | 'line' | 'title' | 'description' | 'suggestion'
>;

/** A decision a run knows of (review/decisions.ts): open, answered, or answered and its option pushed. */
export interface KnownDecision extends DecisionAsk {
  finding: DecisionFinding;
  by: Decision['by'];
  answer?: DecisionAnswer;
  /** The commit that made the chosen option's change. */
  doneIn?: string;
}

/** A person's `/review-loop decide <id> <n>`, accepted (review/decision-answers.ts). */
export interface DecisionAnswer {
  /** The number of the chosen option (1-based). */
  chosen: number;
  by: string;
  /** The person's own words after the command: the report shows them, no agent gets them. */
  comment: string;
  /** The PR head the question was asked on, which the answer covers. */
  headSha: string;
}

/** One place of a finding, with the exact new text of its lines when the reviewer gave one. */
export interface FindingLocation {
  file: string | null;
  line: number | null;
  endLine: number | null;
  replacement: string | null;
}

/** One reviewer's report of a problem a grouped finding stands for, in its own words. */
export interface FindingMember {
  id: string;
  reviewer: string;
  priority: Priority;
  category: string;
  file: string | null;
  line: number | null;
  title: string;
  description: string;
  /** Its places, when it named several. */
  locations?: { file: string | null; line: number | null }[];
  /** Its reviewer marked it a choice for the maintainers. */
  asked?: DecisionAsk;
}

type DismissedVia = 'command' | 'resolved';

/** A person's request to dismiss the finding of one of the action's threads (dismissals.ts). */
export interface DismissalRequest {
  /** The thread's node id: a later run matches its cached dismissals by it. */
  thread: string;
  /** What the thread's finding is about (its hidden mark). */
  finding: { id: string; category: string; file: string | null; title: string };
  /** The thread's line when the request was read (GitHub moves it with the diff), for matching. */
  line: number | null;
  /** What the comment that opened the thread says of the finding, for matching by content. */
  text?: string;
  /** Who asked (GraphQL login) and why; the reason is '' when none was given. */
  by: string;
  reason: string;
  via: DismissedVia;
}

/** A request by someone with write access. */
export type Dismissal = DismissalRequest;

/** A request refused, and why (no write access, or the permission could not be read). */
export interface RefusedDismissal extends DismissalRequest {
  why: string;
}

/** A finding of the round that a dismissal covers. */
export interface DismissedFinding {
  finding: Finding;
  dismissal: Dismissal;
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
  /** The `wait-for-checks` checks of this head; their failures are among `findings`. */
  ci?: CiRound;
  /** What `setup` and the head's test run did before this review, when either ran or was withheld. */
  setup?: SetupRecord;
  threadsTruncated: boolean;
  /** Human review state (the maintainer veto of the consensus), computed from the API. */
  changesRequestedBy: { login: string; association: string }[];
  /** The rules files of the changed folders the reviewers were given (review/dir-rules.ts). */
  ruleFiles?: string[];
  /** Findings people with write access dismissed: not fixed, counted, posted or blocking. */
  dismissed?: DismissedFinding[];
  /** Every dismissal known in the round, matched or not: the review's hidden state keeps them. */
  dismissals?: Dismissal[];
  /** Requests by people who may not dismiss: listed in the report, never applied. */
  refusedDismissals?: RefusedDismissal[];
  /** `/review-loop decide` answers this run refused, and why (github/answerers.ts): the report lists them. */
  refusedAnswers?: { by: string; id: string; why: string }[];
  /** Every decision the run knew of after this review: its hidden state keeps them for later runs. */
  knownDecisions?: KnownDecision[];
  /** Re-reports of an answered decision whose chosen option was pushed: dropped, listed. */
  settledDecisions?: Finding[];
  /** P0 findings one agent (or a minority) marked a decision: not made one, listed (review/decisions.ts). */
  refusedDecisions?: { id: string; title: string; why: string }[];
  /** What this round's reviewers made of the fixes pushed before it (review/fix-checks.ts). */
  fixChecks?: FixCheck[];
}

/**
 * How a pushed fix stands: `checked` (a reviewer or the gate on a model that did not write it found
 * nothing left of it), `own-model` (the panel has no other model: only the fixer's model looked),
 * `unchecked` (the other models' reviewers failed, or no review came after the fix yet) or
 * `came-back` (a reviewer reported it again: it is stuck).
 */
type FixCheckState = 'checked' | 'own-model' | 'unchecked' | 'came-back';

export interface FixCheck {
  finding: FixedFingerprint;
  /** The commit that fixed it. */
  fixedIn: string;
  /** The models (`agent:model`) that wrote the fix. */
  fixModels: string[];
  state: FixCheckState;
  /** Who checked it (`reviewer-2 (codex:gpt-5-codex)`), or, unchecked, who could not and why. */
  by: string[];
}

interface EscalatedCheck {
  id: string;
  name: string;
  workflow: string | null;
  attempts: number;
  logTail: string;
}

/** What a round's checks said, for its report and its end (termination.ts). */
export interface CiRound {
  sha: string;
  /** Failing checks within their budget, as findings for the fixer. */
  findings: Finding[];
  escalated: EscalatedCheck[];
  flaky: { name: string; workflow: string | null }[];
  passed: { name: string; workflow: string | null }[];
  /** Entries still running, or never started, when the time was up. */
  waiting: string[];
}

/** A run of the project's own commands by the action (setup, the head's test run): what the report shows. */
export interface CommandsRun {
  ok: boolean;
  /** Each command that ran, in order; the run stops at the first that fails. */
  results: VerifyResult[];
  durationMs: number;
}

/** What the review of a head knew of the project's installation and tests (commands/setup.ts). */
export interface SetupRecord {
  /** The `setup` commands' run on this head or the tree it came from; null when setup is unset or withheld. */
  setup: CommandsRun | null;
  /** The verify commands run once on this head before its review; null when they did not run. */
  headTests: CommandsRun | null;
  /** Why setup or the head's test run did not run though set (a fork PR, no isolation, turned off). */
  notRun?: string;
  /**
   * A failed setup that is no finding: the PR touches no manifest, lock file or file a setup
   * command names, so the cause may be the environment.
   */
  environment?: true;
}

export interface FixedFingerprint {
  id: string;
  category: string;
  file: string | null;
  title: string;
}
