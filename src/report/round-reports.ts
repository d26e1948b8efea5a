// Posting what each round did: the review report with its annotations, and the fix
// report, each with the hidden state a later run reads (for a pushed fix, the fixed findings'
// fingerprints, so a later run recognises a fixed finding that comes back).
import type { FixedByReview, LoopEnd } from '../domain/loop.js';
import type { ReviewRoundRecord } from '../domain/findings.js';
import type { FixRoundRecord } from '../domain/fix.js';
import type { PrContext } from '../domain/pull-request.js';
import type { ReportContext } from './format.js';
import { renderFixReport, renderReviewReport } from './markdown.js';
import { withEnd } from './markdown-end.js';
import type { InlineReview } from './inline-review.js';
import type { Publisher } from './publish.js';
import { reportState, type HiddenState, type StateWriter } from './state.js';
import type { KnownDecision } from '../domain/findings.js';
import { WritesRefused } from './writes-refused.js';

export interface RoundReportsSetup {
  publisher: Publisher;
  reportCtx: ReportContext;
  writer: StateWriter;
  inline: InlineReview;
  /** Fix attempts per failing check, kept in every report's state for the next run; null: no checks. */
  ciAttempts: () => Record<string, number> | null;
}

/** Posting a round's reports: the loop's steps for it. */
export interface RoundPublishing {
  /** `end` is set when this report is the run's last word; `ctx` (its diff and threads) places the inline review. */
  publishReview(rec: ReviewRoundRecord, end: LoopEnd | null, ctx: PrContext): Promise<void>;
  publishFix(rec: FixRoundRecord, end: LoopEnd | null, review: FixedByReview): Promise<void>;
}

export function roundReports(s: RoundReportsSetup): RoundPublishing {
  const { publisher, reportCtx, writer, inline } = s;
  const ci = () => {
    const attempts = s.ciAttempts();
    return attempts ? { ciAttempts: attempts } : {};
  };
  return {
    async publishReview(rec, end, ctx) {
      publisher.annotate(rec.findings);
      // Findings with an open thread of ours get no new comment: the report links to the thread.
      const threads = inline.openThreads(rec, ctx);
      const state = reportState(writer, {
        kind: 'review',
        round: rec.round,
        headSha: rec.headSha,
        status: end?.status ?? null,
        findingIds: rec.findings.map((f) => f.id),
        stuckIds: rec.stuck.map((f) => f.id),
      });
      // What a later run's reviewers are told became of these findings (preflight/memory.ts).
      const findings = [...rec.findings.filter((f) => f.source.type === 'agent'), ...rec.stuck].map(
        ({ id, priority, category, file, line, title }) => ({ id, priority, category, file, line, title }),
      );
      // Every dismissal known, even one no finding matched this round: the next run's cache.
      const dismissed = (rec.dismissals ?? []).map(({ thread, finding, line, by, reason, via, text }) => ({
        thread,
        ...finding,
        line,
        by,
        reason,
        via,
        ...(text ? { text } : {}),
      }));
      const known = decisionsState(rec.knownDecisions);
      const body = withEnd(renderReviewReport(rec, reportCtx, threads, inline.heldBack(rec, ctx)), end);
      await publisher.report(body, { ...state, counts: rec.counts, findings, dismissed, ...known, ...ci() });
      // GitHub refused the report: nothing may follow it (no fixer, push or comment).
      if (!end && publisher.writesRefused) throw new WritesRefused(rec, publisher.writesRefused);
      await inline.review(rec, ctx);
    },
    async publishFix(rec, end, review) {
      const pushed = rec.outcome === 'pushed' ? rec.fixed.map((f) => f.findingId) : [];
      const fixed = review.fixed.map((f) => ({ ...f, title: f.title.slice(0, 120) }));
      const base = reportState(writer, {
        kind: 'fix',
        round: rec.round,
        headSha: rec.previousHeadSha,
        status: end?.status ?? null,
        fixedIds: pushed,
      });
      const rejected = rec.rejected.map((r) => ({ id: r.findingId, reason: r.reason }));
      const state = { ...base, fixed, counts: review.counts, ...(rejected.length ? { rejected } : {}), ...ci() };
      // Confirmed findings whose test a pushed fix made pass: a later run does not confirm them again.
      const proven = (rec.confirmed ?? []).filter((c) => c.passesAfter).map((c) => c.findingId);
      const pushedState =
        rec.outcome === 'pushed' && rec.commitSha
          ? {
              ...state,
              commitSha: rec.commitSha,
              ...(proven.length ? { confirmedIds: proven } : {}),
              ...(rec.fixModels?.length ? { fixModels: rec.fixModels } : {}),
            }
          : state;
      // The fixer's hand-backs are decisions from this report on: a later run reads them here.
      const withDecisions = { ...pushedState, ...decisionsState(review.known) };
      await publisher.report(withEnd(renderFixReport(rec, reportCtx), end), withDecisions);
      await inline.afterFix(rec, review.about, review.decisions ?? []);
    },
  };
}

/** The decisions known, as the hidden state keeps them (memory.ts reads the newest). */
function decisionsState(known: readonly KnownDecision[] | undefined): { decisions?: HiddenState['decisions'] } {
  if (!known?.length) return {};
  const decisions = known.map((d) => {
    const { suggestion: _s, ...finding } = d.finding;
    const answer = d.answer ? { answer: d.answer } : {};
    return {
      ...finding,
      question: d.question,
      options: d.options,
      by: d.by,
      ...answer,
      ...(d.doneIn ? { doneIn: d.doneIn } : {}),
    };
  });
  return { decisions };
}
