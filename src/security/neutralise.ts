// The one neutraliser for agent- and PR-derived text on its way to a comment, the job summary,
// an annotation or a log line (docs/security.md, "What is posted"). Such text must not speak
// with the bot's voice: no @mention (user or team), no raw HTML, no image, no GFM alert, no link
// to an outside host, no heading or rule that reads as the report's own structure, and, in the
// log, no workflow command.
//
// Markdown is defused by inserting U+200B ZERO WIDTH SPACE inside each construct. Unlike a
// backslash escape it is invisible wherever it lands (prose, table cell, code span), so the
// inline pass does not need to know where code spans are: GFM tables split cells before code
// spans are found (GFM spec §4.10), which makes code-span boundaries depend on table detection.
// Only fenced code blocks are left byte-exact, so suggested code can be copied as is; which lines
// are fenced code follows the CommonMark block model in commonmark-lines.ts.
import { BlockScanner, markdownLines } from './commonmark-lines.js';

const ZWSP = '\u200b';

// Bidi overrides and isolates reorder what a reader sees (Trojan Source, CVE-2021-42574); C0 and
// C1 controls (ESC starts terminal colour codes in the log) have no business in a report.
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** Bidi controls and control characters out, line ends as LF (CommonMark §2.1). */
export function cleanText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(BIDI, '').replace(CONTROLS, '\ufffd');
}

// Each rule breaks one inline construct by putting ZWSP between two characters that must touch.
const INLINE_RULES: readonly [RegExp, string][] = [
  // Raw HTML, HTML blocks and autolinks (§6.6, §6.5, §4.6) all start with `<` and a letter, `/`, `!` or `?`.
  [/<(?=[A-Za-z/!?])/g, `<${ZWSP}`],
  // The end of an HTML comment, so no text can close ours.
  [/--(?=!?>)/g, `--${ZWSP}`],
  // @user, @org/team (GitHub mentions) and GFM email autolinks (GFM §6.9).
  [/@(?=[A-Za-z0-9])/g, `@${ZWSP}`],
  // Entity and numeric character references (§2.5): `&#64;` would decode to a live `@`.
  [/&(?=#?[A-Za-z0-9]+;)/g, `&${ZWSP}`],
  // GFM autolink literals (§6.9): `scheme://` and `www.`.
  [/:(?=\/\/)/g, `:${ZWSP}`],
  [/(?<![A-Za-z0-9])(www)(?=\.)/gi, `$1${ZWSP}`],
  // Images (§6.4) and GFM alerts (`> [!CAUTION]`).
  [/!(?=\[)/g, `!${ZWSP}`],
  [/\[(?=!)/g, `[${ZWSP}`],
  // Inline links `](`, full references `][` and link reference definitions `]:` (§6.3, §4.7).
  [/\](?=[(\[:])/g, `]${ZWSP}`],
];

/** Defuses every inline construct in a piece of text; the block structure is left to the caller. */
function defuseInline(text: string): string {
  let out = text;
  for (const [re, to] of INLINE_RULES) out = out.replace(re, to);
  return out;
}

// Characters that start a block when they open a line: heading, quote, list, rule, fence, table.
const LINE_START = /^(?:[#>+*=_`~|-]|\d{1,9}[.)])/;

/**
 * Untrusted text as one line of prose, safe mid-sentence, at the start of a line and in a table
 * cell. Line breaks become spaces; the result is at most `max` characters plus the added ZWSPs.
 */
export function neutraliseInline(text: string, max = 300): string {
  let t = cleanText(text)
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  if (t.length > max) t = `${t.slice(0, max - 1)}…`;
  t = defuseInline(t);
  if (LINE_START.test(t)) t = ZWSP + t;
  return t.replace(/\|/g, '\\|');
}

// Info strings GitHub renders as something other than code (diagrams, maps, models, math).
const RICH_INFO = /^(?:mermaid|geojson|topojson|stl|math)\b/i;

/**
 * Untrusted multi-line markdown, kept readable (lists, emphasis, code) but inert. Fenced code
 * stays byte-exact; every other line is defused; an unclosed top-level fence is closed so the
 * text cannot swallow what follows it. Output ends without a trailing newline.
 */
export function neutraliseBlock(text: string): string {
  const scanner = new BlockScanner('neutralised');
  const out: string[] = [];
  for (const raw of markdownLines(cleanText(text).replace(/\s+$/, ''))) {
    const info = scanner.next(raw);
    if (info.kind === 'fenced' || info.kind === 'fence-close') out.push(raw);
    else if (info.kind === 'fence-open') out.push(defuseInfoString(raw, info.contentStart));
    else {
      const head = raw.slice(0, info.contentStart);
      const body = defuseInline(raw.slice(info.contentStart));
      out.push(head + (info.needsBreak ? ZWSP : '') + body);
    }
  }
  const open = scanner.openFence();
  // Inside a block quote or list item the fence ends with its container at the caller's next
  // unindented line (§5.1, §5.2); only a top-level fence needs a closer.
  if (open?.topLevel) out.push(open.marker);
  return out.join('\n');
}

/**
 * An opening fence keeps its language for highlighting, unless GitHub would render it live
 * (then it becomes `text`); the info string is defused too, which costs nothing as it is not shown.
 */
function defuseInfoString(line: string, at: number): string {
  const fence = /^(`{3,}|~{3,})([ \t]*)(.*)$/.exec(line.slice(at));
  if (!fence) return line;
  const info = RICH_INFO.test(fence[3] ?? '') ? 'text' : defuseInline(fence[3] ?? '');
  return `${line.slice(0, at)}${fence[1]}${fence[2]}${info}`;
}

/**
 * Text for a log line or annotation. The runner reads `::command::` and `##[command]` at the
 * start of any stdout line, after leading whitespace (actions/runner ActionCommandManager), so
 * each line that would start one gets a ZWSP between the two marker characters.
 */
export function neutraliseLog(text: string): string {
  return cleanText(text)
    .split('\n')
    .map((l) => l.replace(/^(\s*)([:#])(?=:|#\[)/, `$1$2${ZWSP}`))
    .join('\n');
}
