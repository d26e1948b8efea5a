// One review round: reviewers and the analyzer run concurrently; findings are
// normalised, grouped, checked for stuck ones, counted, and a consensus is computed.
import path from 'node:path';
import { analyzerResultSchema, type RawFinding } from '../agents/envelope.js';
import type { RoleOutcome } from '../agents/run-role.js';
import type { AgentSpec } from '../agents/types.js';
import { BudgetSpent } from '../budget/budget.js';
import type { CiRound } from '../ci/ci-round.js';
import type { PrContext } from '../domain/pull-request.js';
import { callRole, type RoleEnv } from '../roles/call.js';
import { reviewerPanel } from '../roles/fallback.js';
import { writeContextDir } from '../roles/context-dir.js';
import { prContextData } from '../roles/context-data.js';
import type { AgentRun } from '../domain/agent-run.js';
import { cleanDeep } from '../security/untrusted.js';
import { consensus } from './consensus.js';
import { countFindings, groupFindings, normalizeFinding, sortFindings } from './findings.js';
import type { EarlierFinding } from './earlier.js';
import { laterRoundFiles, laterRoundPrompt, ownEarlierPrompt, ownFixesPrompt } from './later-round.js';
import { checkFixes } from './fix-checks.js';
import { callReviewer, type ReviewerSessions } from './reviewer-call.js';
import { splitDismissed } from './dismissals.js';
import { withEchoedId } from './echoed-id.js';
import { markStuck } from './stuck.js';
import { placeFiles, placesInHead, type HeadLines } from './places-in-head.js';
import { applyDecisions, type KnownDecision } from './decisions.js';
import type { FixedFingerprint } from '../domain/findings.js';
import { splitByWriters, threadFindings, threadsForReview } from './threads.js';
import type { Dismissal, RefusedDismissal, ReviewRoundRecord } from '../domain/findings.js';

export interface RoundPlan {
  round: number;
  ctx: PrContext;
  reviewers: AgentSpec[];
  analyzer: AgentSpec;
  fixedBefore: FixedFingerprint[];
  /** Findings the before-review hook added. */
  before?: RawFinding[];
  /** The last round's findings with their fate (round 2 on): reviewers check them first. */
  earlier?: EarlierFinding[];
  /** The listed checks of this head: failing ones are findings of the round. */
  ci?: CiRound | null;
  /** A round for the failing checks only (a red CI run started the run): no agent reviews. */
  ciOnly?: boolean;
  /** Each reviewer's session from the round before; updated by this round. */
  sessions?: ReviewerSessions;
  /** What people with write access dismissed (dismissals.ts): such findings leave the round. */
  dismissals?: Dismissal[];
  /** Requests to dismiss by people who may not: the report lists them. */
  refusedDismissals?: RefusedDismissal[];
  /** More files for the reviewers' context folder (what the action ran on the head: roles/setup-data.ts). */
  contextFiles?: Record<string, string>;
  /** The decisions the run knows of, answered ones with their answer (review/decisions.ts). */
  decisions?: KnownDecision[];
  /** Pushed fixes no model but their own has checked yet (fate `fixed`): this round checks them. */
  pendingFixes?: EarlierFinding[];
  /** The after-review hook: it sees the reviewers' findings and may add its own. */
  afterReviewers?: (found: (RawFinding & { reviewer: string })[]) => Promise<RawFinding[]>;
  /**
   * The lines of each named file at the PR head (null: not a file there). With it, a place past a
   * file's end is left out before grouping (places-in-head.ts); without it, places stay as given.
   */
  headLines?: (files: string[]) => Promise<HeadLines>;
}

export interface RoundOutcome {
  record: ReviewRoundRecord;
  /** Why the loop must stop with a failure (no successful reviewer, failed analyzer). */
  failure: string | null;
  /**
   * Why nothing was reviewed when no reviewer's CLI could authenticate (every reviewer and its
   * fallbacks: a fork PR's run gets no keys), instead of `failure`; null otherwise.
   */
  unreviewed: string | null;
  /** Decisions this round's reviewers opened: the loop keeps them for later rounds. */
  openedDecisions?: KnownDecision[];
}

/**
 * The reviewers' and the analyzer's context: the PR and the unresolved threads, outsiders'
 * marked; from round 2 on, the last round's findings with their fate and the change since.
 */
function reviewContextData(ctx: PrContext, earlier?: EarlierFinding[], files: Record<string, string> = {}) {
  const later = earlier ? Object.fromEntries(laterRoundFiles(ctx, earlier).map((f) => [f.name, f.text])) : {};
  const extra = { ...later, ...files };
  return {
    ...prContextData(ctx),
    threads: cleanDeep(threadsForReview(ctx.threads)),
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}

const NO_REVIEWS = { hasChangesRequested: false, changesRequestedBy: [] };

export async function runReviewRound(env: RoleEnv, plan: RoundPlan): Promise<RoundOutcome> {
  const { ctx, round } = plan;
  // One context folder for the round's reviewers and analyzer: the same bytes, and the same
  // prompt up to the reviewer's name at its end, so a provider's prompt cache can serve them all.
  const roundDir = path.join(env.scratchDir, `round-${round}`);
  const contextDir = await writeContextDir(roundDir, 'review', reviewContextData(ctx, plan.earlier, plan.contextFiles));
  const later = laterRoundPrompt(env.prompts, ctx, plan.earlier);
  const { writers, outsiders } = splitByWriters(ctx.threads);
  // No unresolved threads: the analyzer's answer is known without a model.
  const withAnalyzer = writers.length + outsiders.length > 0 && !plan.ciOnly;
  const reviewers = plan.ciOnly ? [] : plan.reviewers;
  const concurrent = reviewers.length + (withAnalyzer ? 1 : 0);
  const sessions = plan.sessions ?? new Map<string, string>();
  const panel = reviewerPanel(reviewers);
  const reviewerJobs = reviewers.map((spec, i) => {
    const name = `reviewer-${i + 1}`;
    const n = reviewers.length;
    // Its own part, at the end of its prompt: its words for its findings, then the fixes its model wrote.
    const ownParts = [
      ownEarlierPrompt(env.prompts, plan.earlier, name),
      ownFixesPrompt(env.prompts, plan.earlier, spec),
    ];
    const ownEarlier = ownParts.filter(Boolean).join('\n\n');
    const call = { name, spec, ctx, round, contextDir, laterRound: later, ownEarlier, concurrent, reviewers: n, panel };
    return callReviewer(env, sessions, call);
  });
  const analyzerJob = withAnalyzer
    ? callRole(env, {
        role: 'analyzer',
        name: 'analyzer',
        spec: plan.analyzer,
        ctx,
        round,
        contextDir,
        concurrent,
        schema: analyzerResultSchema,
      }).catch((e: unknown) => {
        // The budget would not cover the analyzer: the threads are listed without its summaries.
        if (!(e instanceof BudgetSpent)) throw e;
        env.log?.(`${e.message}; the review threads are listed as they are`);
        return null;
      })
    : Promise.resolve(null);

  await allEnded([...reviewerJobs, analyzerJob]);
  const [reviewerResults, analyzerResult] = await Promise.all([Promise.all(reviewerJobs), analyzerJob]);

  const agents: AgentRun[] = reviewerResults.map((r) => r.run);
  const raw: { finding: RawFinding; reviewer: string }[] = [];
  for (const r of reviewerResults) {
    if (r.outcome.ok) for (const f of r.outcome.value.findings) raw.push({ finding: f, reviewer: r.run.name });
  }
  const okCount = reviewerResults.filter((r) => r.outcome.ok).length;
  const afterHook = (await plan.afterReviewers?.(raw.map((r) => ({ ...r.finding, reviewer: r.reviewer })))) ?? [];
  raw.push(
    ...(plan.before ?? []).map((finding) => ({ finding, reviewer: 'hook:before-review' })),
    ...afterHook.map((finding) => ({ finding, reviewer: 'hook:after-review' })),
  );
  if (plan.headLines) await checkPlaces(env, raw, plan.headLines);

  let pending: RawFinding[] = [];
  const noReviewer = okCount === 0 && !plan.ciOnly && reviewers.length > 0;
  const unreviewed = noReviewer ? unauthenticated(reviewerResults) : null;
  let failure: string | null = noReviewer && !unreviewed ? 'no reviewer succeeded' : null;
  if (analyzerResult) {
    agents.push(analyzerResult.run);
    if (analyzerResult.outcome.ok) pending = analyzerResult.outcome.value.pendingIssues;
    // With only outsiders' threads, a failed analyzer costs their summaries, not the run: an
    // outsider's comment must not be able to stop the loop.
    else if (writers.length > 0) failure = `the review-thread analyzer failed: ${analyzerResult.outcome.error}`;
  }

  const renames = new Map(ctx.files.filter((f) => f.previousFilename).map((f) => [f.previousFilename!, f.filename]));
  // A dismissal's ids are known before grouping: an echoed id of a dismissed finding is never taken.
  const dismissedIds = new Set((plan.dismissals ?? []).map((d) => d.finding.id));
  const echo = { earlier: plan.earlier ?? [], dismissed: dismissedIds, renames };
  const grouped = groupFindings(
    raw.map((r) => withEchoedId(normalizeFinding(r.finding, r.reviewer), r.finding.id, echo)),
  );
  // A decision is never stuck: it waits for the maintainers, or is the fix of their answer.
  const decided = applyDecisions(grouped, plan.decisions ?? [], renames);
  const marked = markStuck(
    decided.findings.filter((f) => !f.decision),
    plan.fixedBefore,
    renames,
  );
  marked.active.push(...decided.findings.filter((f) => f.decision));
  // A dismissed finding leaves the round before anything counts it: not fixed, posted or blocking.
  const dismissals = plan.dismissals ?? [];
  const live = splitDismissed(marked.active, dismissals, renames);
  const back = splitDismissed(marked.stuck, dismissals, renames);
  const [active, stuck] = [live.kept, back.kept];
  const threads = threadFindings(plan.ciOnly ? [] : writers, pending);
  const ci = plan.ci?.findings ?? [];
  const all = sortFindings([...active, ...ci, ...stuck, ...threads]);
  const counts = countFindings(all);

  return {
    failure,
    unreviewed,
    ...(decided.opened.length ? { openedDecisions: decided.opened } : {}),
    record: {
      round,
      headSha: ctx.meta.headSha,
      partial: okCount > 0 && okCount < reviewers.length,
      agents,
      findings: sortFindings([...active, ...ci, ...threads]),
      ...(plan.ci ? { ci: plan.ci } : {}),
      stuck,
      counts,
      consensus: consensus(counts, plan.ciOnly ? NO_REVIEWS : ctx.reviewState),
      // A round for the checks only judges the checks: human threads wait for a full review.
      unresolvedThreads: plan.ciOnly ? 0 : writers.length,
      outsiderThreads: sortFindings(threadFindings(outsiders, pending)),
      threadsTruncated: ctx.threadsTruncated,
      changesRequestedBy: ctx.reviewState.changesRequestedBy,
      dismissed: [...live.dismissed, ...back.dismissed],
      dismissals,
      refusedDismissals: plan.refusedDismissals ?? [],
      ...(decided.refused.length ? { refusedDecisions: decided.refused } : {}),
      ...(decided.settled.length ? { settledDecisions: decided.settled.map((s) => s.finding) } : {}),
      ...(plan.pendingFixes?.length ? { fixChecks: checkFixes(plan.pendingFixes, agents, stuck, renames) } : {}),
    },
  };
}

/**
 * Each finding's places checked against the head's files (places-in-head.ts), in place; one log
 * line per finding changed.
 */
async function checkPlaces(
  env: RoleEnv,
  raw: { finding: RawFinding; reviewer: string }[],
  headLines: NonNullable<RoundPlan['headLines']>,
): Promise<void> {
  const files = placeFiles(raw.map((r) => r.finding));
  if (!files.length) return;
  const lines = await headLines(files);
  for (const r of raw) {
    const checked = placesInHead(r.finding, lines);
    if (!checked.changes.length) continue;
    env.log?.(`review: ${r.reviewer}'s finding "${r.finding.title}": ${checked.changes.join('; ')}`);
    r.finding = checked.finding;
  }
}

/** "reviewer-1: <why>; …" when every reviewer's last model failed to authenticate, else null. */
function unauthenticated(results: { outcome: RoleOutcome<unknown>; run: AgentRun }[]): string | null {
  const why = results.map((r) => (r.outcome.ok ? undefined : r.outcome.auth));
  if (why.some((w) => !w)) return null;
  return results.map((r, i) => `${r.run.name}: ${why[i]!.detail}`).join('; ');
}

/**
 * Waits for every job to end, then throws the first error if one failed: a call the budget
 * refused (BudgetSpent) must not leave its siblings running when the round is given up.
 */
async function allEnded(jobs: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(jobs)).find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}
