// The fix report: one comment per fix attempt.
import type { ConfirmedFinding, FixRoundRecord, VerifyResult } from '../domain/fix.js';
import { agentsTable } from './agents-table.js';
import type { ReportContext } from './format.js';
import { code, commitLink, dash, fenced, fmtDuration, footer, inline, shortSha, table } from './format.js';
import { FIX_OUTCOME_HEADLINE, NOTE, SECTION, TITLE } from './wording.js';
import { fixCheckNote } from './markdown-fix-checks.js';

export function renderFixReport(rec: FixRoundRecord, ctx: ReportContext): string {
  const sections: (string | null)[] = [
    TITLE.fix(rec.round, FIX_OUTCOME_HEADLINE[rec.outcome]),
    rec.message.trim() ? inline(rec.message, 1000) : null,
    ctx.dryRun ? NOTE.dryRun : null,
    commits(rec, ctx),
    `${SECTION.fixed} (${rec.fixed.length})\n\n${idList(rec.fixed.map((f) => [f.findingId, f.description]))}`,
    fixCheckNote(rec),
    rec.rejected.length > 0
      ? `${SECTION.rejected} (${rec.rejected.length})\n\n${idList(rec.rejected.map((r) => [r.findingId, r.reason]))}`
      : null,
    rec.deferred?.length
      ? `${SECTION.deferred} (${rec.deferred.length})\n\n${idList(rec.deferred.map((d) => [d.findingId, d.reason]))}`
      : null,
    rec.confirmed?.length
      ? `${SECTION.confirmed} (${rec.confirmed.length})\n\n${NOTE.confirmedIntro}\n\n` +
        rec.confirmed.map((c) => confirmedEvidence(c, rec, ctx)).join('\n\n')
      : null,
    rec.unconfirmed?.length
      ? `${SECTION.unconfirmed} (${rec.unconfirmed.length})\n\n` +
        idList(rec.unconfirmed.map((u) => [u.findingId, u.reason]))
      : null,
    rec.unverified ? `${SECTION.verify}\n\n${NOTE.unverified}` : verification(rec.verify),
    rec.fixer ? `${SECTION.fixer}\n\n${agentsTable([rec.fixer])}` : null,
    footer(ctx),
  ];
  return `${sections.filter((s): s is string => s !== null).join('\n\n')}\n`;
}

function commits(rec: FixRoundRecord, ctx: ReportContext): string {
  const before = `Previous head: ${commitLink(ctx, rec.previousHeadSha)}`;
  if (!rec.commitSha) return `${before} · ${NOTE.noFixCommit}`;
  // Only a pushed commit exists on GitHub; any other is a local commit that was dropped.
  const commit =
    rec.outcome === 'pushed' ? commitLink(ctx, rec.commitSha) : `${code(shortSha(rec.commitSha))} ${NOTE.notPushed}`;
  return `${before} · fix commit: ${commit}`;
}

/** What the action saw of a confirmed finding's test: it failed on the PR head, and after the fix. */
function confirmedEvidence(c: ConfirmedFinding, rec: FixRoundRecord, ctx: ReportContext): string {
  const test = [
    c.testFile ? `regression test ${code(c.testFile)}` : null,
    c.testName ? `test ${inline(c.testName, 200)}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const after = c.passesAfter
    ? `passes after ${rec.outcome === 'pushed' ? commitLink(ctx, c.passesAfter) : code(shortSha(c.passesAfter))}`
    : c.failedAfter !== undefined
      ? NOTE.confirmedStillFails
      : NOTE.confirmedNotRerun;
  const output = (label: string, text: string) =>
    `<details><summary>${label}</summary>\n\n${fenced(text || NOTE.noOutput, 'text')}\n\n</details>`;
  const lines = [
    `**${code(c.findingId)}** · ${test || dash}`,
    `${code(c.command)} failed on the PR head with only the test added; ${after}.`,
    output(NOTE.failingOutput, c.failedOutput),
  ];
  if (c.failedAfter) lines.push(output(NOTE.afterOutput, c.failedAfter));
  return lines.join('\n');
}

function idList(items: [string, string][]): string {
  if (items.length === 0) return NOTE.none;
  return items.map(([id, text]) => `- **${code(id)}** · ${text.trim() ? inline(text, 500) : dash}`).join('\n');
}

const failed = (v: VerifyResult): boolean => v.timedOut || v.exitCode !== 0;

function verification(results: VerifyResult[]): string | null {
  if (results.length === 0) return null;
  const rows = results.map((v) => [
    code(v.command),
    failed(v) ? '❌' : '✅',
    v.timedOut ? 'timed out' : v.exitCode === null ? dash : String(v.exitCode),
    fmtDuration(v.durationMs),
  ]);
  const tails = results
    .filter(failed)
    .map((v) => `${NOTE.outputOf(code(v.command))}\n\n${fenced(v.outputTail || NOTE.noOutput, 'text')}`);
  return [SECTION.verify, table(['Command', 'Result', 'Exit code', 'Time'], rows), ...tails].join('\n\n');
}
