// Rounds and termination: review → report → fix → report, until converged,
// stuck, blocked, failed, or max-rounds. Each step is injected so the order of events
// reads here like the data-flow picture in docs/architecture.md. The four hook points fire
// from here, and the loop keeps the one ledger of fixed findings' fingerprints.
import type { LoopEnd, LoopResult } from './domain/loop.js';
import type { RoundPublishing } from './report/round-reports.js';
import type { RawFinding } from './agents/envelope.js';
import { BudgetSpent } from './budget/budget.js';
import type { CiRound } from './ci/ci-round.js';
import type { HookPoint } from './config/repo-config.js';
import type { RunStatus } from './domain/run-status.js';
import type { PrContext, PrMeta } from './domain/pull-request.js';
import { WritesRefused } from './report/writes-refused.js';
import { earlierFindings, type EarlierFinding } from './review/earlier.js';
import { stillUnchecked, wroteFix } from './review/fix-checks.js';
import { handedBack, openDecisions, type KnownDecision } from './review/decisions.js';
import { modelRef } from './config/same-model.js';
import type { RoundOutcome, RoundPlan } from './review/round.js';
import { fingerprint, fixedFingerprints } from './review/stuck.js';
import type { FixedFingerprint } from './domain/findings.js';
import type { Finding, ReviewRoundRecord } from './domain/findings.js';
import type { FixRoundRecord } from './domain/fix.js';
import { budgetEnd, decide, decisionsWait, endMessage, fixTerminal, sentence } from './termination.js';

/** The steps, each injected; posting a round's reports is report/round-reports.ts's. */
export interface LoopSteps extends RoundPublishing {
  /** The PR at `meta`'s head; with `since`, also the change since that earlier reviewed head. */
  loadContext(meta: PrMeta, since?: string): Promise<PrContext>;
  review(plan: Omit<RoundPlan, 'reviewers' | 'analyzer'>): Promise<RoundOutcome>;
  fix(ctx: PrContext, round: number, findings: Finding[]): Promise<FixRoundRecord>;
  /** Runs a lifecycle hook; before-review and after-review may answer with findings. */
  hook(point: HookPoint, info: Record<string, unknown>): Promise<RawFinding[]>;
  /** Waits until the PR head shows the pushed commit; null when it never does. */
  waitForHead(sha: string): Promise<PrMeta | null>;
  afterPush(headRef: string): Promise<void>;
  /** Why no further agent call may start (max-tokens or max-cost-usd reached), or null. */
  budgetSpent(ciOnly: boolean): string | null;
  /** The `wait-for-checks` checks of a head (null: none listed); `ours`: the loop pushed it. */
  checks(sha: string, ours: boolean): Promise<CiRound | null>;
  /** A fix of these CI findings was pushed: one attempt each against ci-fix-attempts. */
  ciAttempted(ids: string[]): void;
  log(line: string): void;
}

export interface LoopInput {
  meta: PrMeta;
  maxRounds: number;
  dryRun: boolean;
  /** Fingerprints of what earlier runs fixed: a finding that matches one is stuck. */
  fixedBefore: FixedFingerprint[];
  /** The last review an earlier run of this job posted, with its findings' fate (preflight/memory.ts). */
  earlier?: { headSha: string; findings: EarlierFinding[] } | null;
  /**
   * The fixer's models (`agent:model`, its own and its fallbacks): who wrote an earlier run's fix
   * when that run's state does not say.
   */
  fixerModels?: string[];
  /** The decisions earlier runs asked (the review's hidden state), with any answer read since. */
  decisions?: KnownDecision[];
  /** Answers to them this run refused: the first review report lists them. */
  refusedAnswers?: { by: string; id: string; why: string }[];
  /** A red CI run started the run: each round is for the failing checks only (no agent reviews). */
  ciOnly?: boolean;
  /** Decided once before the loop (preflight/push-plan.ts); the reason says why not. */
  push: { canPush: boolean; reason: string | null };
}

export async function runLoop(steps: LoopSteps, input: LoopInput): Promise<LoopResult> {
  return loopRounds(steps, input).catch((e: unknown) => {
    if (e instanceof WritesRefused) return reviewOnlyAfterRefusal(e, input.meta.headSha);
    throw e;
  });
}

/** The after-finish hook; the coordinator keeps the loop's result before it runs, in case it fails. */
export async function finishLoop(steps: Pick<LoopSteps, 'hook'>, prNumber: number, result: LoopResult): Promise<void> {
  await steps.hook('after-finish', {
    prNumber,
    headSha: result.headSha,
    status: result.status,
    rounds: result.rounds.length,
    remaining: result.remaining.map((f) => f.id),
  });
}

/**
 * GitHub refused the run's first write (a token that may not write, which nothing told up
 * front). The refused write is always the first review report (it is the run's first write,
 * and a token's permissions do not change during a run), so the run ends review-only on that
 * review, as it would have had the token been known read-only from the start.
 */
function reviewOnlyAfterRefusal(e: WritesRefused, headSha: string): LoopResult {
  const review = e.record;
  return {
    status: 'review-only',
    message: e.message,
    rounds: [{ review, fix: null }],
    headSha,
    remaining: [...review.findings, ...review.stuck],
    stuck: review.stuck,
    last: review,
  };
}

async function loopRounds(steps: LoopSteps, input: LoopInput): Promise<LoopResult> {
  const rounds: LoopResult['rounds'] = [];
  const fixed = [...input.fixedBefore];
  let meta = input.meta;
  /** What the last pushed fix left unfixed: the run's remaining findings if it ends before the next review. */
  let carried: Finding[] | undefined;
  /** Every decision the run knows of (review/decisions.ts): asked by a round, a fixer or an earlier run. */
  const decisions: KnownDecision[] = [...(input.decisions ?? [])];
  /** Pushed fixes no other model has checked yet (review/fix-checks.ts); an earlier run's too. */
  let pending: EarlierFinding[] = (input.earlier?.findings ?? [])
    .filter((f) => f.fate === 'fixed')
    .map((f) => ({ ...f, fixedBy: f.fixedBy ?? input.fixerModels ?? [] }));
  const end = (
    status: RunStatus,
    message: string,
    last: ReviewRoundRecord | null,
    remaining?: Finding[],
  ): LoopResult => {
    // What remains, each finding a decision asks about marked so (a fixer's hand-back of this round too).
    const left = (remaining ?? (last ? [...last.findings, ...last.stuck] : [])).map((f) => {
      const d = f.decision ? undefined : decisions.find((k) => k.finding.id === f.id);
      return d ? { ...f, decision: { question: d.question, options: d.options, by: d.by } } : f;
    });
    return result(status, message, last, left);
  };
  const result = (status: RunStatus, message: string, last: ReviewRoundRecord | null, left: Finding[]): LoopResult => ({
    status,
    message,
    rounds,
    headSha: meta.headSha,
    remaining: left,
    decisions: openDecisions(left),
    stuck: last?.stuck ?? [],
    last,
    unchecked: pending.map((p) => ({
      finding: { id: p.id, category: p.category, file: p.file, title: p.title },
      fixedIn: p.fixedIn ?? '',
      fixModels: p.fixedBy ?? [],
      state: 'unchecked' as const,
      by: [],
    })),
  });

  for (let round = 1; round <= input.maxRounds; round++) {
    steps.log(`round ${round}: reviewing ${meta.headSha.slice(0, 7)}`);
    // From round 2 on, reviewers check the last round's fixes and the change since its head.
    const previous = rounds.at(-1);
    // In round 1, what an earlier run of this job reviewed last (a rerun, or a push by a human since).
    const since = previous?.review.headSha ?? input.earlier?.headSha;
    const ctx = await steps.loadContext(meta, since);
    // The listed checks of this head: a reviewer like the others.
    const ci = await steps.checks(meta.headSha, round > 1);
    const lastFate = previous ? earlierFindings(previous.review, previous.fix) : input.earlier?.findings;
    // A fix an earlier round left unchecked (its other-model reviewers failed) is checked again.
    const again = pending.filter((p) => !lastFate?.some((f) => f.id === p.id));
    const earlier = lastFate || again.length ? [...(lastFate ?? []), ...again] : undefined;
    const files = ctx.files.map((f) => f.filename);
    const hookInfo = { round, prNumber: meta.number, headSha: meta.headSha, baseSha: meta.baseSha, files };
    const before = await steps.hook('before-review', hookInfo);
    const reviewed = await steps
      .review({
        round,
        ctx,
        fixedBefore: fixed,
        before,
        ...(earlier ? { earlier } : {}),
        ci,
        ciOnly: input.ciOnly ?? false,
        ...(pending.length ? { pendingFixes: pending } : {}),
        decisions,
        afterReviewers: (findings) => steps.hook('after-review', { ...hookInfo, findings }),
      })
      .catch((e: unknown) => {
        // The check after the last fix normally ends the run first; this is a round whose
        // own calls (its analyzer, a reviewer's fresh retry) the budget would not cover.
        if (e instanceof BudgetSpent) return e;
        throw e;
      });
    if (reviewed instanceof BudgetSpent) {
      return end('budget', sentence(reviewed.message), previous?.review ?? null, carried);
    }
    const { record, failure, unreviewed } = reviewed;
    decisions.push(...(reviewed.openedDecisions ?? []));
    if (round === 1 && input.refusedAnswers?.length) record.refusedAnswers = input.refusedAnswers;
    // A fix's hand-backs join before its report; the review's report keeps what was known at its end.
    record.knownDecisions = decisions.map((d) => ({ ...d }));
    if (!failure && !unreviewed) pending = stillUnchecked(pending, record.fixChecks ?? []);
    const entry: LoopResult['rounds'][number] = { review: record, fix: null };
    rounds.push(entry);
    const decision = decide(record, input.push, failure, unreviewed);
    if (decision) {
      await steps.publishReview(record, decision, ctx);
      return end(decision.status, decision.message, record);
    }
    await steps.publishReview(record, null, ctx);

    const fix = await steps.fix(ctx, round, record.findings);
    entry.fix = fix;
    const fixStatus = fixTerminal(fix, input.dryRun);
    // The fixer's hand-backs below P0 are decisions now; an answered decision whose option was pushed is done.
    const handed = handedBack(fix, record.findings);
    decisions.push(...handed);
    if (fix.outcome === 'pushed') {
      for (const d of decisions)
        if (d.answer && fix.fixed.some((x) => x.findingId === d.finding.id)) d.doneIn = fix.commitSha!;
    }
    // An open decision waits for a person, but the rounds go on while the rest is fixed and checked; the
    // next review ends the run `manual` once only decisions remain, as the last round's end does.
    const waiting = openDecisions(record.findings).length + handed.length;
    const humanLeft = record.findings.some((f) => f.source.type === 'human') || record.changesRequestedBy.length > 0;
    const fixedIds = new Set(fix.fixed.map((f) => f.findingId));
    // Every pushed fix that was given a failing check is one attempt at it, whatever the fixer said.
    if (fix.outcome === 'pushed') steps.ciAttempted((ci?.findings ?? []).map((f) => f.id));
    // The run's ledger also keeps each member's words: a reviewer reports again in its own.
    const fixedHere = fix.outcome === 'pushed' ? record.findings.filter((f) => fixedIds.has(f.id)) : [];
    fixed.push(...fixedHere.flatMap(fixedFingerprints));
    // A gate on another model approved the pushed fix: checked already; else the next review checks it.
    const gate = fix.gateApproved;
    const byGate = gate !== undefined && !wroteFix(fix.fixModels ?? [], modelRef(gate));
    if (fixedHere.length && !byGate) pending.push(...earlierFindings(record, fix).filter((f) => f.fate === 'fixed'));
    const last = round === input.maxRounds;
    // The PR must show a pushed fix before its report goes out, so that report can be the
    // run's last word when it never does.
    const moved = fixStatus ? null : await steps.waitForHead(fix.commitSha!);
    const lost = fixStatus || moved ? null : `The push succeeded but the PR head never showed ${fix.commitSha}.`;
    // A spent budget ends the run after a pushed fix: no call of the next round may start.
    const spent = steps.budgetSpent(input.ciOnly ?? false);
    const after = humanLeft || (last && waiting > 0) ? 'manual' : last ? 'max-rounds' : spent ? 'budget' : null;
    const afterMessage =
      after === 'budget'
        ? budgetEnd(spent!, round)
        : after === 'manual' && waiting > 0
          ? decisionsWait(waiting)
          : after
            ? endMessage(after, input.maxRounds)
            : '';
    const unfixed = [...record.findings.filter((f) => !fixedIds.has(f.id)), ...record.stuck];
    // A fixer that handed every issue back changed nothing: the run waits for the maintainers.
    const fixMessage =
      fix.outcome === 'no-changes' && waiting > 0 ? `${fix.message} ${decisionsWait(waiting)}` : fix.message;
    const fixEnd: LoopEnd | null = fixStatus
      ? { status: fixStatus, message: fixMessage }
      : lost
        ? { status: 'failed', message: lost }
        : after
          ? { status: after, message: afterMessage, remaining: unfixed }
          : null;
    const about = [...record.findings, ...record.stuck].map(fingerprint);
    await steps.publishFix(fix, fixEnd, {
      fixed: fixedHere.map(fingerprint),
      counts: record.counts,
      about,
      known: decisions.map((d) => ({ ...d })),
      decisions: handed.map((d) => ({
        id: d.finding.id,
        category: d.finding.category,
        file: d.finding.file,
        title: d.finding.title,
        question: d.question,
        options: d.options,
        by: d.by,
      })),
    });
    // After the report, so a failing hook cannot lose the record of a pushed fix.
    await steps.hook('after-fix', {
      round,
      prNumber: meta.number,
      headSha: fix.commitSha ?? fix.previousHeadSha,
      previousHeadSha: fix.previousHeadSha,
      outcome: fix.outcome,
      fixed: fix.fixed,
      rejected: fix.rejected,
    });
    if (fixStatus) return end(fixStatus, fixMessage, record);
    if (!moved) return end('failed', lost!, record);
    meta = moved;
    await steps.afterPush(meta.headRef);
    if (after) return end(after, afterMessage, record, unfixed);
    carried = unfixed;
  }
  throw new Error('unreachable: the loop always ends inside a round');
}
