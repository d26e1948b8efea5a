// Small markdown helpers shared by the reports. Untrusted text (agent titles,
// descriptions, error messages, file names) only enters a report through inline(),
// block(), code() or fenced(), which keep it from breaking the report's structure, pinging
// people, showing images or links, or posing as the report's own verdict.
import { placesOf, type Place } from '../review/places.js';
import { cleanText, neutraliseBlock, neutraliseInline, tableCell } from '../security/neutralise.js';
import { redactDiffs } from '../security/sanitize.js';
import { NOTE } from './wording.js';

export interface ReportContext {
  serverUrl: string;
  owner: string;
  repo: string;
  prNumber: number;
  runUrl: string | null;
  maxRounds: number;
  mode: 'fix' | 'review';
  dryRun: boolean;
}

/** Where the reports link to: the server, the repository, the PR and this workflow run. */
export function reportContext(
  serverUrl: string,
  runId: string | undefined,
  repo: { owner: string; repo: string },
  prNumber: number,
  settings: Pick<ReportContext, 'maxRounds' | 'mode' | 'dryRun'>,
): ReportContext {
  const runUrl = runId ? `${serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${runId}` : null;
  const { maxRounds, mode, dryRun } = settings;
  return { serverUrl, owner: repo.owner, repo: repo.repo, prNumber, runUrl, maxRounds, mode, dryRun };
}

/** Untrusted text as one line, safe in prose, at the start of a line and in table() cells. */
export function inline(text: string, max = 300): string {
  return neutraliseInline(text, max);
}

/**
 * Untrusted multi-line markdown as a block: diffs redacted, then neutralised (neutralise.ts):
 * fenced code byte-exact, everything else inert, an unclosed fence closed at the end.
 */
export function block(text: string): string {
  return neutraliseBlock(redactDiffs(cleanText(text)));
}

/** A code span that survives backticks in its content (a pipe in a table cell: table()). */
export function code(text: string): string {
  // Nothing inside a code span is live (CommonMark §6.1); only its delimiters need care.
  const t = cleanText(text).replace(/\n+/g, ' ');
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${t}${pad}${ticks}`;
}

/**
 * A fenced block whose fence is longer than any backtick run inside. Empty text is a block with no
 * line: as a suggestion, GitHub applies that as deleting the commented lines, where a block holding
 * one empty line would leave a blank line in their place.
 */
export function fenced(text: string, lang = ''): string {
  // The look-behind lets only the first newline of a run start a match: a plain /\n+$/ retries from
  // each newline of a long run that something other than the end follows, quadratic in its length
  // (200,000 newlines in an agent's replacement took 15 s).
  const clean = cleanText(text).replace(/(?<!\n)\n+$/, '');
  const longest = Math.max(0, ...(clean.match(/`{3,}/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${clean ? `${clean}\n` : ''}${fence}`;
}

function encodePath(file: string): string {
  return file
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

export function repoUrl(ctx: ReportContext): string {
  return `${ctx.serverUrl.replace(/\/+$/, '')}/${ctx.owner}/${ctx.repo}`;
}

function blobUrl(ctx: ReportContext, sha: string, file: string, line: number | null): string {
  return `${repoUrl(ctx)}/blob/${sha}/${encodePath(file)}${line !== null && line > 0 ? `#L${line}` : ''}`;
}

export function commitLink(ctx: ReportContext, sha: string): string {
  return `[${code(shortSha(sha))}](${repoUrl(ctx)}/commit/${sha})`;
}

/** `file:line` linked to the file at the given commit; a plain note when there is no file. */
export function locationLink(ctx: ReportContext, sha: string, file: string | null, line: number | null): string {
  if (!file) return NOTE.noLocation;
  const label = line !== null && line > 0 ? `${file}:${line}` : file;
  return `[${code(label)}](${blobUrl(ctx, sha, file, line)})`;
}

/** Every place of a finding: its one place, or each of the several it names, linked at `sha` (or named). */
export function placesLink(
  ctx: ReportContext,
  sha: string | null,
  f: { file: string | null; line: number | null; locations?: readonly Place[] | null },
): string {
  const places = placesOf(f);
  const one = (p: Place) => (sha ? locationLink(ctx, sha, p.file, p.line) : p.file ? code(p.file) : NOTE.noLocation);
  return places.length > 1 ? NOTE.places(places.map(one).join(', '), places.length) : one(places[0]!);
}

function runLink(url: string | null, label: string): string | null {
  return url ? `[${label}](${url})` : null;
}

/** The closing line of every report: where to find the run's log. */
export function footer(ctx: ReportContext): string {
  const run = runLink(ctx.runUrl, NOTE.runLink) ?? NOTE.noRunLink;
  return `---\n\n<sub>${run} · pr-review-loop</sub>`;
}

export const shortSha = (sha: string): string => sha.slice(0, 7);
export const dash = '—';

export function fmtInt(n: number | null): string {
  return n === null ? dash : n.toLocaleString('en-US');
}

export function fmtCost(usd: number | null): string {
  if (usd === null) return dash;
  return `$${usd < 0.01 && usd > 0 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

export function fmtDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const totalSec = Math.round(ms / 1000);
  return `${Math.floor(totalSec / 60)}m ${String(totalSec % 60).padStart(2, '0')}s`;
}

export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(tableCell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
