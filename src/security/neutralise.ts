// The one neutraliser for agent- and PR-derived text on its way to a comment, the job summary,
// an annotation or a log line (docs/security.md, "What is posted"). Such text must not speak
// with the bot's voice: no @mention (user or team), no raw HTML, no image, no GFM alert, no link
// to an outside host, no heading or rule that reads as the report's own structure, and, in the
// log, no workflow command.
//
// Markdown is defused by inserting U+200B ZERO WIDTH SPACE inside each construct outside code:
// unlike a backslash escape it is invisible wherever it lands. Code is left exactly as written, so
// a reader who copies `@click` or a suggested block gets those characters and no hidden one:
// fenced code blocks, whose lines follow the CommonMark block model in commonmark-lines.ts, and
// code spans, found by a real parser (code-spans.ts) on the text as it stands after cleaning and
// truncation. A backtick outside a span is escaped, so defusing cannot make prose into code; and
// the result is parsed again: if its spans are not the source's, byte for byte (a structure the
// block model reads otherwise), the text is defused everywhere as before, spans included.
import { BlockScanner, markdownLines } from './commonmark-lines.js';
import { codeSpans, type CodeSpan } from './code-spans.js';

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

/**
 * Prose: every inline construct defused, and each backtick not already escaped made a literal
 * one (`\``), so no backtick outside the source's spans can open a span in the result.
 */
function defuseProse(text: string): string {
  // (?<!\\) starts a match only at a run's first backslash, where it matched anyway: without it a
  // long run of backslashes and no backtick is scanned again from each of them (quadratic).
  return defuseInline(text).replace(/(?<!\\)(\\*)`/g, (m, slashes: string) =>
    slashes.length % 2 ? m : slashes + '\\`',
  );
}

/** `text[from, to)` with its prose defused and the code spans inside it kept as written. */
function defuseAround(text: string, from: number, to: number, spans: readonly CodeSpan[], prose = defuseProse): string {
  let out = '';
  let at = from;
  for (const s of spans) {
    if (s.end <= at || s.start >= to) continue;
    const start = Math.max(s.start, at);
    const end = Math.min(s.end, to);
    out += prose(text.slice(at, start)) + text.slice(start, end);
    at = end;
  }
  return out + prose(text.slice(at, to));
}

/** True when `result` holds exactly the code spans of `source`, same text, same order. */
function sameCode(result: string, source: string, spans: readonly CodeSpan[]): boolean {
  const before = spans.map((s) => source.slice(s.start, s.end));
  const after = codeSpans(result).map((s) => result.slice(s.start, s.end));
  return before.length === after.length && before.every((t, i) => t === after[i]);
}

// Characters that start a block when they open a line: heading, quote, list, rule, fence, table.
const LINE_START = /^(?:[#>+*=_`~|-]|\d{1,9}[.)])/;

/**
 * Untrusted text as one line of prose, safe mid-sentence, at the start of a line and, through
 * tableCell(), in a table cell; code spans as written. Line breaks become spaces; the result is
 * at most `max` characters plus the added escapes.
 */
export function neutraliseInline(text: string, max = 300): string {
  // (?<!\s): a match starts only where a run of blanks starts, as it did anyway; without it a long
  // run of blanks with no line break is scanned again from each blank (quadratic).
  let t = cleanText(text)
    .replace(/(?<!\s)\s*\n\s*/g, ' ')
    .trim();
  if (t.length > max) t = `${t.slice(0, max - 1)}…`;
  if (LINE_START.test(t)) t = ZWSP + t;
  // A pipe outside code is escaped here; one inside a span is escaped by tableCell(), as in prose
  // `\|` inside code would show its backslash.
  const prose = (p: string) => escapePipes(defuseProse(p), false);
  const spans = codeSpans(t);
  const out = defuseAround(t, 0, t.length, spans, prose);
  return sameCode(out, t, spans) ? out : escapePipes(defuseInline(t), false);
}

/**
 * Each pipe made one a table row does not split on. A row splits at every `|` not escaped by a
 * backslash, pairs of backslashes first (GFM spec §4.10), and in a cell `\|` renders as `|`,
 * inside a code span too. Outside code a pipe already escaped stays; inside code a backslash the
 * text has before a pipe would pair with the added one, so a ZWSP parts them.
 */
function escapePipes(text: string, inCode: boolean): string {
  // (?<!\\) as in defuseProse: one scan per run of backslashes, not one per backslash.
  return text.replace(/(?<!\\)(\\*)\|/g, (m, slashes: string) => {
    if (slashes.length % 2 === 0) return `${slashes}\\|`;
    return inCode ? `${slashes}${ZWSP}\\|` : m;
  });
}

/**
 * A table cell's text: pipes escaped, inside code spans too. Untrusted text reaches a cell only
 * through inline() (or code()) and then this, which table() applies to every cell.
 */
export function tableCell(text: string): string {
  let out = '';
  let at = 0;
  for (const s of codeSpans(text)) {
    out += escapePipes(text.slice(at, s.start), false) + escapePipes(text.slice(s.start, s.end), true);
    at = s.end;
  }
  return out + escapePipes(text.slice(at), false);
}

// Info strings GitHub renders as something other than code (diagrams, maps, models, math).
const RICH_INFO = /^(?:mermaid|geojson|topojson|stl|math)\b/i;

/**
 * Untrusted multi-line markdown, kept readable (lists, emphasis, code) but inert. Fenced code
 * stays byte-exact; every other line is defused; an unclosed top-level fence is closed so the
 * text cannot swallow what follows it. Output ends without a trailing newline.
 */
export function neutraliseBlock(text: string): string {
  // trimEnd, not /\s+$/, which is quadratic in a long run of spaces inside agent text.
  const source = cleanText(text).trimEnd();
  const spans = codeSpans(source);
  const result = defuseLines(source, spans);
  return sameCode(result, source, spans) ? result : defuseLines(source, null);
}

/**
 * Every line but fenced code defused; `spans` kept as written, or with null (the fallback) every
 * line defused as plain text, code spans included, which is inert whatever the structure.
 */
function defuseLines(source: string, spans: readonly CodeSpan[] | null): string {
  const scanner = new BlockScanner('neutralised');
  const out: string[] = [];
  let offset = 0;
  for (const raw of markdownLines(source)) {
    const info = scanner.next(raw);
    if (info.kind === 'fenced' || info.kind === 'fence-close') out.push(raw);
    else if (info.kind === 'fence-open') out.push(defuseInfoString(raw, info.contentStart));
    else {
      const head = raw.slice(0, info.contentStart);
      const from = offset + info.contentStart;
      const to = offset + raw.length;
      // Indented code has no spans and shows a backslash as written: only its inline constructs.
      const body =
        spans === null || info.kind === 'indented'
          ? defuseInline(raw.slice(info.contentStart))
          : defuseAround(source, from, to, spans);
      out.push(head + (info.needsBreak ? ZWSP : '') + body);
    }
    offset += raw.length + 1;
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
  // `s`: an info string may hold U+2028 or U+2029, as in FENCE_OPEN (commonmark-lines.ts).
  const fence = /^(`{3,}|~{3,})([ \t]*)(.*)$/s.exec(line.slice(at));
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
