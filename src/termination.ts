// When the loop stops: right after a review,
// and after a fix. Pure: the loop (loop.ts) asks, these rules answer with a status and why.
import type { RunStatus } from './domain/run-status.js';
import type { FixRoundRecord } from './domain/fix.js';
import { isConverged } from './review/consensus.js';
import { openDecisions } from './review/decisions.js';
import type { ReviewRoundRecord } from './domain/findings.js';

/**
 * Ends the loop right after a review, or null when the fixer should run. `unreviewed`: why no
 * reviewer could authenticate (review/round.ts); nothing was reviewed, so the run is skipped
 * (the coordinator keeps a fail-on gate shut).
 */
export function decide(
  rec: ReviewRoundRecord,
  push: { canPush: boolean; reason: string | null },
  failure: string | null,
  unreviewed: string | null = null,
): { status: RunStatus; message: string } | null {
  if (unreviewed) return { status: 'skipped', message: `No reviewer could authenticate (${unreviewed}).` };
  if (failure)
    return { status: 'failed', message: `Review round ${rec.round} failed: ${failure}. No fix was attempted.` };
  const escalated = rec.ci?.escalated ?? [];
  if (escalated.length) {
    const tries = (n: number) => `${n} fix attempt${n === 1 ? '' : 's'}`;
    const which = escalated.map((e) => `${e.name} (${tries(e.attempts)})`).join(', ');
    return { status: 'manual', message: `Escalated to a human: CI check ${which} still fails past ci-fix-attempts.` };
  }
  const waiting = openDecisionCount(rec);
  if (waiting === 0 && isConverged(rec.counts, rec.unresolvedThreads, rec.consensus)) {
    const checks = rec.ci?.waiting ?? [];
    if (checks.length === 0 && rec.ci && rec.agents.length === 0) {
      // A checks-only round (a red CI run started the run): the checks pass, the code was not reviewed.
      return { status: 'converged', message: 'The listed checks pass. No agent reviewed the code in this run.' };
    }
    if (checks.length === 0) return { status: 'converged', message: 'No blocking findings remain.' };
    return {
      status: 'manual',
      message:
        `The review is clean, but the checks ${checks.join(', ')} did not finish on this head in time ` +
        '(checks-timeout-minutes); a run is converged only when they pass.',
    };
  }
  if (!push.canPush)
    return { status: 'review-only', message: `Review only: ${push.reason ?? 'fixing is not allowed'}.` };
  const fixable = rec.findings.filter(
    (f) => f.source.type === 'agent' && f.priority !== 'P3' && (!f.decision || f.decision.answer),
  );
  if (rec.threadsTruncated)
    return {
      status: 'manual',
      message:
        'The PR has more review threads than the action reads (300); fixing is blocked until a human resolves some.',
    };
  if (fixable.length === 0 && waiting > 0) return { status: 'manual', message: decisionsWait(waiting) };
  if (fixable.length === 0) {
    const why = rec.stuck.length
      ? 'only stuck findings remain'
      : 'only unresolved review threads or requested changes remain';
    return { status: 'manual', message: `Manual resolution required: ${why}.` };
  }
  return null;
}

/** The decisions of a review still waiting for the maintainers' answer. */
function openDecisionCount(rec: ReviewRoundRecord): number {
  return openDecisions(rec.findings).length;
}

export function decisionsWait(n: number): string {
  return (
    `${n} decision(s) wait for the maintainers: the report asks each question with its options; answer with ` +
    '`/review-loop decide <id> <n>`.'
  );
}

export function endMessage(status: 'manual' | 'max-rounds', maxRounds: number): string {
  return status === 'manual'
    ? 'Manual resolution required: unresolved review threads or requested changes need a human.'
    : `Reached max-rounds (${maxRounds}); the fix of the last round was pushed without a re-review.`;
}

export function fixTerminal(fix: FixRoundRecord, dryRun: boolean): RunStatus | null {
  switch (fix.outcome) {
    case 'pushed':
      return null;
    case 'dry-run':
      return dryRun ? 'review-only' : 'failed';
    case 'no-changes':
    case 'gate-blocked':
      return 'manual';
    case 'budget':
      return 'budget';
    default:
      return 'failed';
  }
}

export function budgetEnd(spent: string, round: number): string {
  return `${sentence(spent)}. The fix of round ${round} was pushed; round ${round + 1} was not started.`;
}

/** A reason as the start of a sentence. */
export const sentence = (reason: string): string => reason.charAt(0).toUpperCase() + reason.slice(1);
