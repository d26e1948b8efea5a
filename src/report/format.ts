// Small markdown helpers shared by the reports. Untrusted text (agent titles,
// descriptions, error messages, file names) only enters a report through inline(),
// block() or code(), which keep it from breaking the report's structure or pinging people.
import { redactDiffs } from './sanitize.js';
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

const ZWSP = '\u200b';
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Neutralises HTML openers, comment ends and @mentions in one line. */
function neutraliseLine(line: string): string {
  return line
    .replace(/<(?=[A-Za-z!/?])/g, `<${ZWSP}`)
    .replace(/--(?=!?>)/g, `--${ZWSP}`)
    .replace(/(^|[^A-Za-z0-9_`/])@(?=[A-Za-z0-9])/g, `$1@${ZWSP}`);
}

/** Untrusted text as one line, safe in prose and in table cells. */
export function inline(text: string, max = 300): string {
  let t = text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  if (t.length > max) t = `${t.slice(0, max - 1)}…`;
  return neutraliseLine(t).replace(/\|/g, '\\|');
}

/**
 * Untrusted multi-line markdown as a block: diffs redacted, headings and setext
 * underlines escaped outside code fences, an unclosed fence closed at the end.
 */
export function block(text: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of redactDiffs(text.replace(/\r\n?/g, '\n')).trimEnd().split('\n')) {
    const m = FENCE.exec(line);
    if (m?.[1]) {
      if (fence === null) fence = m[1];
      else if (m[1][0] === fence[0] && m[1].length >= fence.length) fence = null;
      out.push(fence === null ? line : neutraliseLine(line));
      continue;
    }
    if (fence !== null) {
      out.push(line);
      continue;
    }
    out.push(neutraliseLine(line).replace(/^(\s{0,3})([#=]|-{3,}\s*$)/, '$1\\$2'));
  }
  if (fence !== null) out.push(fence);
  return out.join('\n');
}

/** A code span that survives backticks and pipes in its content. */
export function code(text: string): string {
  const t = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${t.replace(/\|/g, '\\|')}${pad}${ticks}`;
}

/** A fenced block whose fence is longer than any backtick run inside. */
export function fenced(text: string, lang = ''): string {
  const longest = Math.max(0, ...(text.match(/`{3,}/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text.replace(/\n+$/, '')}\n${fence}`;
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

export function blobUrl(ctx: ReportContext, sha: string, file: string, line: number | null): string {
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

export function runLink(url: string | null, label: string): string | null {
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
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
