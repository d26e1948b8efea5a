// Memory across runs: earlier marker comments written by the token's own
// identity. Anyone else's comment is never trusted as state, whatever it contains. And since
// every workflow of the repository posts as that same github-actions[bot], a state
// counts only when it names this workflow job and a run GitHub says is a run of this workflow.
import type { Octokit } from '../github/client.js';
import type { IssueComment } from '../github/comments.js';
import type { RepoRef } from '../domain/pull-request.js';
import { createRunCheck, workflowIdentity, type WorkflowIdentity } from '../github/workflow-runs.js';
import { MARKER } from '../domain/marker.js';
import { STATE_FIELD_CAPS, clipText, decodeState, type HiddenState, type StateWriter } from '../report/state.js';
import type { Dismissal, KnownDecision } from '../domain/findings.js';
import type { EarlierFinding } from '../review/earlier.js';
import type { FixedFingerprint } from '../domain/findings.js';

// A head that ended in one of these was reviewed for good; a failed run may be retried.
const FINAL = new Set(['converged', 'manual', 'review-only', 'max-rounds']);

export interface PriorRuns {
  states: HiddenState[];
  /** A final state recorded for this head, if any. */
  finalForHead: HiddenState | null;
  /** Fingerprints of every finding an earlier run reported fixed. */
  fixed: FixedFingerprint[];
  /** The last review this job posted, and what became of its findings (null: none, or too old to say). */
  lastReview: { headSha: string; findings: EarlierFinding[] } | null;
  /** Node ids of this job's report comments (trusted states only), oldest first: a new report supersedes them. */
  reports: string[];
  /** Findings an earlier run confirmed by a failing test that its pushed fix made pass. */
  confirmed: string[];
  /** Fix attempts per failing CI check, as the last report that kept them says. */
  ciAttempts: Record<string, number>;
  /** The dismissals the newest review knew of: this run's threads may no longer show them all. */
  dismissed: Dismissal[];
  /** The replies in the action's threads that earlier runs answered (REST comment ids). */
  answered: number[];
  /** The decisions the newest report knew of, with their answers (review/decisions.ts). */
  decisions: KnownDecision[];
  /** When each decision was first asked: the time of the oldest report that lists it. */
  decisionsAskedAt: Map<string, string>;
  /** Answers to them this run refused (set once the answers are read: preflight/decision-answers.ts). */
  refusedAnswers?: { by: string; id: string; why: string }[];
}

/** What this run is, to tell its own earlier states from forged ones. */
export interface StateTrust {
  /** This run's workflow job (`<workflow name>/<job id>`); null: no state can be trusted. */
  job: string | null;
  /** This run's workflow file (from GITHUB_WORKFLOW_REF), when the runner says it. */
  workflow: string | null;
  /** Why the run a state names is not a run of this workflow, or null when it is (createRunCheck). */
  checkRun(runId: string): Promise<string | null>;
  /** Says why a state was ignored. */
  log(message: string): void;
}

/** What earlier runs of this workflow job left (trusted states only), and how this run signs its own. */
export async function readMemory(m: {
  env: NodeJS.ProcessEnv;
  octokit: Octokit;
  repo: RepoRef;
  comments: IssueComment[];
  ownLogin: string;
  headSha: string;
  log: (line: string) => void;
}): Promise<{ prior: PriorRuns; writer: StateWriter }> {
  // Cut like the hidden state cuts them, so the values this run records compare equal to the ones it reads back.
  const self = clippedIdentity(workflowIdentity(m.env));
  const checkRun = createRunCheck(m.octokit, m.repo, self.runId);
  const trust = { job: self.job, workflow: self.workflow, checkRun, log: m.log };
  const writer: StateWriter = {
    runId: m.env.GITHUB_RUN_ID ?? null,
    ...(self.job ? { job: self.job } : {}),
    ...(self.workflow ? { workflow: self.workflow } : {}),
  };
  return { prior: await readPriorRuns(m.comments, m.ownLogin, m.headSha, trust), writer };
}

/**
 * The states of our own marker comments that this workflow job wrote. A head another job
 * reviewed (say, a review-only workflow next to a fixing one) is not "already reviewed" for
 * this one, and neither are its fixes: states of other jobs are ignored, like forged ones.
 */
export async function readPriorRuns(
  comments: IssueComment[],
  ownLogin: string,
  headSha: string,
  trust: StateTrust,
): Promise<PriorRuns> {
  const decoded = comments.flatMap((c) => {
    if (c.author.toLowerCase() !== ownLogin.toLowerCase() || !c.body.includes(MARKER)) return [];
    const s = decodeState(c.body);
    return s ? [{ id: c.id, nodeId: c.nodeId, s }] : [];
  });
  // In parallel: the run lookups behind it are cached per run id.
  const verdicts = await Promise.all(decoded.map(({ s }) => whyUntrusted(s, trust)));
  const states: HiddenState[] = [];
  const reports: string[] = [];
  const postedAt = new Map(comments.map((c) => [c.id, c.createdAt]));
  const decisionsAskedAt = new Map<string, string>();
  decoded.forEach(({ id, nodeId, s }, i) => {
    const distrust = verdicts[i];
    if (distrust) trust.log(`ignored the hidden state of comment ${id}: ${distrust}`);
    else {
      states.push(s);
      reports.push(nodeId);
      for (const d of s.decisions ?? []) if (!decisionsAskedAt.has(d.id)) decisionsAskedAt.set(d.id, postedAt.get(id)!);
    }
  });
  const isFinal = (s: HiddenState) => s.headSha === headSha && s.status !== null && FINAL.has(s.status);
  const finalForHead = [...states].reverse().find(isFinal) ?? null;
  const proven = (s: HiddenState) => (s.kind === 'fix' && s.commitSha ? (s.confirmedIds ?? []) : []);
  const confirmed = [...new Set(states.flatMap(proven))];
  const ciAttempts = [...states].reverse().find((s) => s.ciAttempts)?.ciAttempts ?? {};
  const dismissed = cachedDismissals(states);
  const answered = [...new Set(states.flatMap((s) => s.answered ?? []))];
  const known = {
    fixed: fingerprints(states),
    lastReview: lastReview(states),
    reports,
    confirmed,
    ciAttempts,
    dismissed,
    answered,
    decisions: knownDecisions(states),
    decisionsAskedAt,
  };
  return { states, finalForHead, ...known };
}

/** The trust rule; the cheap checks first, so only plausible states cost a request. */
async function whyUntrusted(s: HiddenState, trust: StateTrust): Promise<string | null> {
  // A state without a job used to match every job: now it matches none.
  if (!s.job) return 'it names no workflow job';
  if (!trust.job) return 'this run has no workflow job to compare with';
  if (s.job !== trust.job) return `it belongs to workflow job ${s.job}, not ${trust.job}`;
  if (trust.workflow && s.workflow !== trust.workflow) {
    return s.workflow ? `it names workflow file ${s.workflow}, not ${trust.workflow}` : 'it names no workflow file';
  }
  if (!s.runId) return 'it names no run';
  return trust.checkRun(s.runId);
}

/** Fingerprints where the state has them; a bare id (older state) still matches by id. */
function fingerprints(states: HiddenState[]): FixedFingerprint[] {
  const byId = new Map<string, FixedFingerprint>();
  for (const s of states) {
    for (const id of s.fixedIds) if (!byId.has(id)) byId.set(id, { id, category: '', file: null, title: '' });
    for (const f of s.fixed ?? []) byId.set(f.id, f);
  }
  return [...byId.values()];
}

/**
 * The newest review state and the fix state of the same run and round: each finding with its
 * fate, as a later round of the same run would be told (review/earlier.ts).
 */
function lastReview(states: HiddenState[]): PriorRuns['lastReview'] {
  const review = [...states].reverse().find((s) => s.kind === 'review' && s.findings);
  if (!review?.findings) return null;
  const fix = states.find((s) => s.kind === 'fix' && s.runId === review.runId && s.round === review.round);
  const fixedIn = fix?.commitSha;
  const fixed = new Set(fixedIn ? fix.fixedIds : []);
  const rejected = new Map((fix?.rejected ?? []).map((r) => [r.id, r.reason]));
  const stuck = new Set(review.stuckIds);
  const findings = review.findings.map((f): EarlierFinding => {
    // Who wrote it, when the fix's state says (else the loop assumes any of the fixer's models).
    const fixedBy = fix?.fixModels ? { fixedBy: fix.fixModels } : {};
    if (fixed.has(f.id)) return { ...f, fate: 'fixed', fixedIn: fixedIn!, ...fixedBy };
    const reason = rejected.get(f.id);
    if (reason !== undefined) return { ...f, fate: 'rejected', reason };
    return { ...f, fate: stuck.has(f.id) ? 'stuck' : 'open' };
  });
  return { headSha: review.headSha, findings };
}

/** The newest review's list: each review writes every dismissal it knew of, undone ones left out. */
function cachedDismissals(states: HiddenState[]): Dismissal[] {
  const newest = [...states].reverse().find((s) => s.kind === 'review' && s.dismissed);
  return (newest?.dismissed ?? []).map(({ thread, id, category, file, line, title, by, reason, via, text }) => ({
    thread,
    finding: { id, category, file, title },
    line,
    by,
    reason,
    via,
    ...(text ? { text } : {}),
  }));
}

function clippedIdentity(id: WorkflowIdentity): WorkflowIdentity {
  const clip = (v: string | null, max: number) => (v === null ? null : clipText(v, max));
  return { ...id, job: clip(id.job, STATE_FIELD_CAPS.job), workflow: clip(id.workflow, STATE_FIELD_CAPS.workflow) };
}

/** The newest report's decisions (each report writes every decision its run knew of). */
function knownDecisions(states: HiddenState[]): KnownDecision[] {
  const newest = [...states].reverse().find((s) => s.decisions);
  return (newest?.decisions ?? []).map(({ question, options, by, answer, doneIn, ...f }) => ({
    question,
    options,
    by,
    finding: { ...f, suggestion: null },
    ...(answer ? { answer } : {}),
    ...(doneIn ? { doneIn } : {}),
  }));
}
