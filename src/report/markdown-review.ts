// The review report: one comment per review round.
import { PRIORITIES } from '../domain/priority.js';
import type { Finding, ReviewRoundRecord } from '../domain/findings.js';
import type { ReportContext } from './format.js';
import type { HeldBack } from './inline-selection.js';
import { agentsTable } from './agents-table.js';
import { ciSection } from './markdown-ci.js';
import { setupSection } from './markdown-setup.js';
import { dismissedSection } from './markdown-dismissed.js';
import { fixChecksSection } from './markdown-fix-checks.js';
import { decisionsSection } from './markdown-decisions.js';
import { outsidersSection } from './markdown-outsiders.js';
import { block, code, commitLink, footer, inline, placesLink, table } from './format.js';
import { CONSENSUS_LABEL, NOTE, PRIORITY_LABEL, SECTION, TITLE } from './wording.js';

// Prose longer than this goes into a collapsed <details>.
const LONG_CHARS = 600;
const LONG_LINES = 8;

/** `threads`: per finding id, the inline thread or review that shows it on the lines. */
export function renderReviewReport(
  rec: ReviewRoundRecord,
  ctx: ReportContext,
  threads: ReadonlyMap<string, string> = new Map(),
  heldBack: HeldBack | null = null,
): string {
  const stuckIds = new Set([...rec.stuck.map((f) => f.id), ...rec.findings.filter((f) => f.stuck).map((f) => f.id)]);
  // A decision has its own section, with its question and options.
  const codeFindings = rec.findings.filter((f) => f.source.type !== 'human' && !stuckIds.has(f.id) && !f.decision);
  const human = rec.findings.filter((f) => f.source.type === 'human');
  const stuck = dedupe([...rec.stuck, ...rec.findings.filter((f) => f.stuck && f.source.type !== 'human')]);
  const okReviewers = rec.agents.filter((a) => a.role === 'reviewer' && a.status === 'ok').length;
  // No reviewer answered: the empty findings are no approval.
  const asked = rec.agents.some((a) => a.role === 'reviewer');
  const verdict = asked && okReviewers === 0 ? NOTE.notReviewed : CONSENSUS_LABEL[rec.consensus];

  const sections: (string | null)[] = [
    TITLE.review(rec.round, ctx.maxRounds, verdict),
    `PR #${ctx.prNumber} · head ${commitLink(ctx, rec.headSha)} · ` +
      `${codeFindings.length} code finding(s), ${human.length} open thread(s)`,
    ctx.dryRun ? NOTE.dryRun : null,
    ctx.mode === 'review' ? NOTE.reviewOnly : null,
    rec.partial ? NOTE.partial : null,
    rec.threadsTruncated ? NOTE.threadsTruncated : null,
    `${SECTION.counts}\n\n${countsTable(rec)}`,
    changesRequested(rec),
    rec.agents.length ? `${SECTION.reviewers}\n\n${agentsTable(rec.agents)}` : NOTE.ciOnly,
    rec.ruleFiles?.length ? NOTE.ruleFiles(rec.ruleFiles.map((p) => code(p)).join(', ')) : null,
    setupSection(rec),
    ciSection(rec),
    decisionsSection(rec),
    fixChecksSection(rec.fixChecks, ctx),
    `${SECTION.findings}\n\n${
      codeFindings.length === 0 && rec.findings.some((f) => f.decision)
        ? NOTE.onlyDecisions
        : findingsByPriority(codeFindings, rec.headSha, okReviewers, ctx, threads)
    }`,
    heldBack ? NOTE.quietInline(heldBack.below, heldBack.overCap) : null,
    stuck.length > 0 ? `${SECTION.stuck}\n\n${NOTE.stuckIntro}\n\n${shortList(stuck, rec.headSha, ctx)}` : null,
    threadsSection(rec, human, ctx),
    dismissedSection(rec, ctx),
    outsidersSection(rec, ctx),
    footer(ctx),
  ];
  return `${sections.filter((s): s is string => s !== null).join('\n\n')}\n`;
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => !seen.has(f.id) && seen.add(f.id));
}

function countsTable(rec: ReviewRoundRecord): string {
  const c = rec.counts;
  return table([...PRIORITIES], [[c.p0, c.p1, c.p2, c.p3].map(String)]);
}

function changesRequested(rec: ReviewRoundRecord): string | null {
  if (rec.changesRequestedBy.length === 0) return null;
  const who = rec.changesRequestedBy.map((r) => `${inline(r.login, 60)} (${inline(r.association, 30)})`).join(', ');
  return NOTE.changesRequested(who);
}

function findingsByPriority(
  findings: Finding[],
  sha: string,
  okReviewers: number,
  ctx: ReportContext,
  threads: ReadonlyMap<string, string>,
): string {
  if (findings.length === 0) return NOTE.noFindings;
  return PRIORITIES.flatMap((p) => {
    const group = findings.filter((f) => f.priority === p);
    if (group.length === 0) return [];
    return [
      `#### ${PRIORITY_LABEL[p]} (${group.length})`,
      ...group.map((f) => renderFinding(f, sha, okReviewers, ctx, threads.get(f.id))),
    ];
  }).join('\n\n');
}

function renderFinding(f: Finding, sha: string, okReviewers: number, ctx: ReportContext, thread?: string): string {
  const total = Math.max(okReviewers, f.reportedBy.length, 1);
  const who = f.reportedBy.length > 0 ? ` (${f.reportedBy.map((n) => inline(n, 40)).join(', ')})` : '';
  const meta = [
    placesLink(ctx, sha, f),
    `${f.reportedBy.length}/${total} reviewer${total === 1 ? '' : 's'}${who}`,
    `category ${inline(f.category, 40)}`,
    ...(thread ? [`[on the diff](${thread})`] : []),
  ].join(' · ');
  const parts = [`**${code(f.id)}** · ${inline(f.title, 200)}<br>\n${meta}`];
  if (f.description.trim()) parts.push(prose('Description', f.description));
  if (f.suggestion?.trim()) parts.push(prose('Suggestion', f.suggestion));
  if ((f.members?.length ?? 0) > 1) parts.push(membersDetails(f, sha, ctx));
  return parts.join('\n\n');
}

/** Every reviewer's own words for a grouped finding, one click away. */
function membersDetails(f: Finding, sha: string, ctx: ReportContext): string {
  const members = (f.members ?? []).map((m) => {
    const where = placesLink(ctx, sha, m);
    const head = `**${inline(m.reviewer, 40)}** · ${m.priority} · ${code(m.id)} · ${where}`;
    const text = `${head}<br>\n${inline(m.title, 200)}`;
    return m.description.trim() ? `${text}\n\n${block(clip(m.description))}` : text;
  });
  const summary = NOTE.membersSummary(f.members!.length);
  return `<details><summary>${summary}</summary>\n\n${members.join('\n\n')}\n\n</details>`;
}

const MEMBER_DESCRIPTION_CHARS = 1200;
const clip = (t: string) => (t.length > MEMBER_DESCRIPTION_CHARS ? `${t.slice(0, MEMBER_DESCRIPTION_CHARS)}…` : t);

/** Prose from an agent; collapsed when long. */
function prose(label: string, text: string): string {
  const long = text.length > LONG_CHARS || text.split('\n').length > LONG_LINES;
  if (long) return `<details><summary>${label}</summary>\n\n${block(text)}\n\n</details>`;
  return label === 'Description' ? block(text) : `**${label}:**\n\n${block(text)}`;
}

function shortList(findings: Finding[], sha: string, ctx: ReportContext): string {
  return findings
    .map((f) => `- ${f.priority} ${code(f.id)} · ${inline(f.title, 200)} · ${placesLink(ctx, sha, f)}`)
    .join('\n');
}

function threadsSection(rec: ReviewRoundRecord, human: Finding[], ctx: ReportContext): string | null {
  if (human.length === 0 && rec.unresolvedThreads === 0) return null;
  const count = NOTE.unresolvedCount(rec.unresolvedThreads);
  const list = human.length > 0 ? `\n\n${shortList(human, rec.headSha, ctx)}` : '';
  return `${SECTION.threads}\n\n${NOTE.threadsIntro} ${count}${list}`;
}
