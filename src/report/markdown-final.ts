// The failure report and the final job-summary overview.
import { PRIORITIES, priorityRank } from '../domain/priority.js';
import type { Finding, FixCheck, ReviewRoundRecord } from '../domain/findings.js';
import { uncheckedNote } from './markdown-fix-checks.js';
import type { FixRoundRecord } from '../domain/fix.js';
import type { Spending } from '../budget/budget.js';
import { spendingSection } from './markdown-spending.js';
import type { ReportContext } from './format.js';
import { block, code, commitLink, dash, fenced, footer, inline, placesLink, shortSha, table } from './format.js';
import { CONSENSUS_LABEL, FINAL_STATUS_LABEL, NOTE, SECTION, TITLE } from './wording.js';

export function renderFailureReport(message: string, ctx: ReportContext): string {
  const sections = [
    TITLE.failure,
    `${NOTE.failureWhat(ctx.prNumber)}\n\n${failureText(message)}`,
    ctx.dryRun ? NOTE.failureDryRun : NOTE.failureNotDone,
    footer(ctx),
  ];
  return `${sections.join('\n\n')}\n`;
}

/** A cancelled run's last report: why it stopped and what landed first. */
export function renderCancelledReport(message: string, ctx: ReportContext): string {
  return `${[TITLE.cancelled, block(message), NOTE.cancelledNext, footer(ctx)].join('\n\n')}\n`;
}

// A multi-line error (git or CLI output) reads best verbatim in a code block.
function failureText(message: string): string {
  const text = message.trim() || 'unknown error';
  return text.includes('\n') ? fenced(text, 'text') : block(text);
}

export interface FinalSummaryInput {
  status: string;
  rounds: { review: ReviewRoundRecord; fix: FixRoundRecord | null }[];
  remaining: Finding[];
  stuck: Finding[];
  message: string;
  /** What the agents spent; absent when the run has no budget ledger (tests of other parts). */
  spent?: Spending;
  /** Pushed fixes no other model checked by the end of the run. */
  unchecked?: FixCheck[];
}

export function renderFinalSummary(input: FinalSummaryInput, ctx: ReportContext): string {
  const last = input.rounds.at(-1);
  // Remaining findings were seen by the last review, so link them at its head.
  const sha = last?.review.headSha ?? null;
  const sections: (string | null)[] = [
    TITLE.final(FINAL_STATUS_LABEL[input.status] ?? inline(input.status, 60)),
    input.message.trim() ? block(input.message) : null,
    ctx.dryRun ? NOTE.dryRun : null,
    uncheckedNote(input.unchecked),
    `${SECTION.rounds}\n\n${input.rounds.length > 0 ? roundsTable(input.rounds, ctx) : NOTE.noRounds}`,
    `${SECTION.remaining} (${input.remaining.length})\n\n${findingList(input.remaining, sha, ctx) ?? NOTE.none}`,
    input.stuck.length > 0 ? `${SECTION.stuck} (${input.stuck.length})\n\n${findingList(input.stuck, sha, ctx)}` : null,
    input.spent ? spendingSection(input.spent) : null,
    footer(ctx),
  ];
  return `${sections.filter((s): s is string => s !== null).join('\n\n')}\n`;
}

function roundsTable(rounds: FinalSummaryInput['rounds'], ctx: ReportContext): string {
  const rows = rounds.map(({ review, fix }) => {
    const c = review.counts;
    return [
      String(review.round),
      commitLink(ctx, review.headSha),
      CONSENSUS_LABEL[review.consensus],
      ...[c.p0, c.p1, c.p2, c.p3].map(String),
      fix ? fix.outcome : NOTE.noFix,
      fixCommit(fix, ctx),
    ];
  });
  return table(['Round', 'Head', 'Consensus', ...PRIORITIES, 'Fix', 'Commit'], rows);
}

function fixCommit(fix: FixRoundRecord | null, ctx: ReportContext): string {
  if (!fix?.commitSha) return dash;
  return fix.outcome === 'pushed'
    ? commitLink(ctx, fix.commitSha)
    : `${code(shortSha(fix.commitSha))} ${NOTE.notPushed}`;
}

function findingList(findings: Finding[], sha: string | null, ctx: ReportContext): string | null {
  if (findings.length === 0) return null;
  const sorted = [...findings].sort((a, b) => priorityRank(a.priority) - priorityRank(b.priority));
  return sorted
    .map((f) => {
      const where = placesLink(ctx, sha, f);
      const human = f.source.type === 'human' ? ` · ${NOTE.humanThread}` : '';
      return `- ${f.priority} ${code(f.id)} · ${inline(f.title, 200)} · ${where}${human}`;
    })
    .join('\n');
}
