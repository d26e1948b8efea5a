// Everything the action posts or logs passes through here: secrets become
// [REDACTED], raw diffs become [DIFF REDACTED], and the text is capped for GitHub's
// comment size limit. Pure functions, no I/O.
import { codeSpans, spanAround, type CodeSpan } from './code-spans.js';
import { BlockScanner, markdownLines } from './commonmark-lines.js';
import { RunSecrets, type Secrets } from './run-secrets.js';
import { redactExactValues, redactPatterns } from './secret-patterns.js';

export { REDACTED } from './secret-patterns.js';
export const DIFF_REDACTED = '[DIFF REDACTED]';
export const TRUNCATED_SUFFIX = '\n\n[TRUNCATED_COMMENT]';
export const MAX_COMMENT_CHARS = 60_000;

export interface SanitizeOptions {
  /**
   * Exact values to redact (tokens from inputs and the environment; shorter than 4 chars are
   * ignored), or the run's secrets, which also learn the values the rules find (run-secrets.ts).
   */
  secrets?: Secrets;
  /** Hard cap on the result, suffix included. */
  maxChars?: number;
}

export function sanitize(text: string, opts: SanitizeOptions = {}): string {
  const clean = redactSecrets(redactDiffs(text), opts.secrets ?? []);
  return capLength(clean, opts.maxChars ?? MAX_COMMENT_CHARS);
}

/** Only the secret part of sanitize(): no diff redaction, no cap. For log lines and errors. */
export function redactSecrets(text: string, secrets: Secrets = []): string {
  if (secrets instanceof RunSecrets) return secrets.redact(text);
  return redactPatterns(redactExactValues(text, secrets));
}

const DIFF_START = /^\s*diff --git /;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// After a blank line the diff goes on only if the next line still looks like diff
// output; a real `git diff` has no blank lines, but agents strip trailing spaces.
const DIFF_CONTINUATION = /^(?:diff --git |@@|index [0-9a-f]+\.\.|[+\- \\])/;

/**
 * Replaces each diff (from a line starting with `diff --git` until a blank line
 * followed by a non-diff line, a code fence, or the end) with one [DIFF REDACTED] line.
 */
export function redactDiffs(text: string): string {
  if (!text.includes('diff --git')) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  let inDiff = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!inDiff) {
      if (DIFF_START.test(line)) {
        inDiff = true;
        out.push(DIFF_REDACTED);
      } else out.push(line);
      continue;
    }
    if (FENCE.test(line)) {
      inDiff = false;
      out.push(line);
    } else if (line.trim() === '' && !DIFF_CONTINUATION.test(lines[i + 1] ?? '')) {
      inDiff = false;
      out.push(line);
    }
  }
  return out.join('\n');
}

/**
 * Cuts text to at most maxChars including TRUNCATED_SUFFIX. An open code fence or
 * <details> in the kept part is closed first, so the suffix stays visible.
 */
export function capLength(text: string, maxChars: number = MAX_COMMENT_CHARS): string {
  if (text.length <= maxChars) return text;
  const spans = codeSpans(text);
  let reserve = 0;
  for (;;) {
    const kept = cutAt(text, Math.max(0, maxChars - TRUNCATED_SUFFIX.length - reserve), spans);
    const closers = closersFor(kept);
    if (closers.length <= reserve || reserve >= maxChars) {
      return (kept + closers + TRUNCATED_SUFFIX).slice(0, Math.max(maxChars, 0));
    }
    reserve = Math.max(reserve + 1, closers.length);
  }
}

const LINE_CUT_REACH = 2_000;

function cutAt(text: string, n: number, spans: readonly CodeSpan[]): string {
  let at = n;
  for (;;) {
    // At a line's end where one is near: the start of a line can be a block of its own (`--- a`
    // cut to `---` is a rule, `- ` under a line makes it a heading); a whole line keeps its meaning.
    if (at > 0 && text[at] !== '\n') {
      const lineEnd = text.lastIndexOf('\n', at - 1);
      if (lineEnd >= 0 && at - lineEnd <= LINE_CUT_REACH) at = lineEnd;
    }
    // Never inside a code span: its opening backticks would then be text, and the code after them
    // prose that no neutraliser saw as prose (neutralise.ts leaves code as written).
    const span = spanAround(spans, at);
    if (!span) break;
    at = span.start;
  }
  // Never split a surrogate pair.
  const code = text.charCodeAt(at - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? at - 1 : at);
}

/**
 * What must follow the kept text so the suffix renders as text: a closer for a fenced code block
 * left open at the top level (inside a block quote or list item the suffix's unindented line
 * ends it, CommonMark §5.1, §5.2), then one `</details>` per unclosed `<details>` outside code.
 */
function closersFor(kept: string): string {
  const scanner = new BlockScanner('commonmark');
  let details = 0;
  for (const line of markdownLines(kept)) {
    const kind = scanner.next(line).kind;
    if (kind !== 'html' && kind !== 'paragraph') continue;
    details += (line.match(/<details\b/gi) ?? []).length - (line.match(/<\/details>/gi) ?? []).length;
  }
  const fence = scanner.openFence();
  return (fence?.topLevel ? `\n${fence.marker}` : '') + '\n</details>'.repeat(Math.max(0, details));
}
