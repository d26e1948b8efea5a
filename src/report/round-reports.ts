// Posting what each round did (SPEC §7): the review report with its annotations, and the fix
// report followed by the after-fix hook, each with the hidden state a later run reads. It also
// remembers, across rounds, what a fix report needs from the review before it: each finding's
// fingerprint (a later run recognises a fixed finding that comes back) and the review's counts.
import type { HookRunner } from '../commands/hooks.js';
import type { LoopSteps } from '../loop.js';
import type { ReportContext } from './format.js';
import { renderFixReport, renderReviewReport } from './markdown.js';
import { withEnd } from './markdown-end.js';
import type { Publisher } from './publish.js';
import { reportState, type StateWriter } from './state.js';
import { fingerprint } from '../review/stuck.js';
import type { Counts, Finding } from '../review/types.js';
import { WritesRefused } from '../preflight/writes-refused.js';

export interface RoundReportsSetup {
  publisher: Publisher;
  reportCtx: ReportContext;
  writer: StateWriter;
  hooks: HookRunner;
  prNumber: number;
}

export function roundReports(s: RoundReportsSetup): Pick<LoopSteps, 'publishReview' | 'publishFix'> {
  const { publisher, reportCtx, writer } = s;
  const seen = new Map<string, Finding>();
  let lastCounts: Counts | null = null;
  return {
    async publishReview(rec, end) {
      for (const f of rec.findings) seen.set(f.id, f);
      publisher.annotate(rec.findings);
      lastCounts = rec.counts;
      const state = reportState(writer, {
        kind: 'review', round: rec.round, headSha: rec.headSha, status: end?.status ?? null,
        findingIds: rec.findings.map((f) => f.id), stuckIds: rec.stuck.map((f) => f.id),
      });
      await publisher.report(withEnd(renderReviewReport(rec, reportCtx), end), { ...state, counts: rec.counts });
      // GitHub refused the report: nothing may follow it (no fixer, push or comment).
      if (!end && publisher.writesRefused) throw new WritesRefused(rec, publisher.writesRefused);
    },
    async publishFix(rec, end) {
      const pushed = rec.outcome === 'pushed' ? rec.fixed.map((f) => f.findingId) : [];
      const fixed = pushed
        .flatMap((id) => (seen.has(id) ? [fingerprint(seen.get(id)!)] : []))
        .map((f) => ({ ...f, title: f.title.slice(0, 120) }));
      const base = reportState(writer, {
        kind: 'fix', round: rec.round, headSha: rec.previousHeadSha, status: end?.status ?? null, fixedIds: pushed,
      });
      const state = { ...base, fixed, ...(lastCounts ? { counts: lastCounts } : {}) };
      const pushedState = rec.outcome === 'pushed' && rec.commitSha ? { ...state, commitSha: rec.commitSha } : state;
      await publisher.report(withEnd(renderFixReport(rec, reportCtx), end), pushedState);
      // After the report, so a failing hook cannot lose the record of a pushed fix.
      await s.hooks.run('after-fix', {
        round: rec.round, prNumber: s.prNumber, headSha: rec.commitSha ?? rec.previousHeadSha,
        previousHeadSha: rec.previousHeadSha, outcome: rec.outcome, fixed: rec.fixed, rejected: rec.rejected,
      });
    },
  };
}
