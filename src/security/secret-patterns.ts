// Secret-like strings the sanitizer redacts. Each rule keeps the
// surrounding syntax (header names, URL scheme, assignment keys) so a reader still sees
// what was there, and only the value becomes [REDACTED]. Every rule is idempotent:
// its own output never matches it again. Token formats come from secret-rules.json.
import { PEM_BEGIN, PEM_BODY, replaceClosedPemBlocks } from './pem-blocks.js';
import { TOKEN_RULES, type TokenRule } from './secret-rules.js';

export const REDACTED = '[REDACTED]';

type Replacer = (match: string, ...groups: string[]) => string;

interface SecretRule {
  name: string;
  re: RegExp;
  replace: Replacer;
}

/** A multi-line secret becomes one [REDACTED] a line: the text keeps its lines. */
const keepLines: Replacer = (m) => m.replace(/[^\n]+/g, REDACTED);
const hasDigit = (s: string): boolean => /\d/.test(s);

/**
 * Whether an assigned value looks like a real credential rather than code
 * (`password: string`, `token = getToken()`, `secret: ${{ secrets.X }}`) or prose.
 * Unquoted identifiers without digits are treated as code: a false negative on a
 * letters-only password is cheaper than redacting every property access in a report.
 */
function isNonTrivialValue(value: string, quoted: boolean): boolean {
  if (value.length < (quoted ? 6 : 8)) return false;
  if (/^[$%{<([\\]/.test(value) || value.includes('(') || value.includes('${')) return false;
  if (/^(?:\*+|x+|\.+|-+|_+|null|undefined|none|true|false|redacted|changeme|placeholder)$/i.test(value)) return false;
  if (/^(.)\1+$/.test(value)) return false;
  if (!quoted && /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(value) && !hasDigit(value)) return false;
  return true;
}

// Words that make a key a credential; a suffix is allowed only in the listed forms so
// `tokenizer` or `max_tokens` do not count.
const KEY_WORD =
  '(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|' +
  'access[_-]?key|private[_-]?key|client[_-]?secret|auth)';
const ASSIGNMENT = new RegExp(
  `(?<![A-Za-z0-9])([A-Za-z0-9_.-]{0,40}?${KEY_WORD}(?:_access_key|_key|_value)?)(?![A-Za-z0-9])` +
    `(["']?\\s*(?::=|[:=])\\s*)(["'\`]?)([^\\s"'\`<>,;)\\]}]+)`,
  'gi',
);

// Rules that keep the syntax around the secret (header names, URL scheme, assignment keys) and
// decide in code whether a value is real. Token formats are data: secret-rules.json.
// A block with its END line (at most 20,000 characters after its BEGIN line) goes first, by
// replaceClosedPemBlocks (pem-blocks.ts): as a regex, BEGIN + PEM_BODY{0,20000}? + END line.
const STRUCTURAL_FIRST: readonly SecretRule[] = [
  // A block cut off before its END line: redact up to the next blank line, anything that is not
  // key material (a quote ending a JSON string, a fence), or the end.
  {
    name: 'private-key-open',
    re: new RegExp(`${PEM_BEGIN}${PEM_BODY}*?(?=\\n[ \\t]*\\n|(?!${PEM_BODY})[\\s\\S]|$)`, 'g'),
    replace: keepLines,
  },
  {
    name: 'url-credentials',
    re: /\b([a-z][a-z0-9+.-]{0,30}:\/\/)[^\s/?#@:[\]]+:[^\s/?#@]+@/gi,
    replace: (_m, scheme = '') => `${scheme}${REDACTED}@`,
  },
  {
    name: 'authorization-header',
    re: new RegExp(
      String.raw`\b((?:Proxy-)?Authorization["']?\s*[:=]\s*["']?)` +
        String.raw`(?:(Basic|Bearer|Token|Digest|Negotiate)\s+)?([A-Za-z0-9\-._~+/=:]+)`,
      'gi',
    ),
    replace: (m, head = '', scheme, value = '') => {
      if (scheme) return value.length >= 4 ? `${head}${scheme} ${REDACTED}` : m;
      return isNonTrivialValue(value, false) ? `${head}${REDACTED}` : m;
    },
  },
  {
    name: 'bearer',
    re: /\b(Bearer\s+)([A-Za-z0-9\-._~+/]{8,}=*)/gi,
    replace: (m, head = '', value = '') =>
      hasDigit(value) || (value.length >= 24 && /[a-z]/.test(value) && /[A-Z]/.test(value)) ? `${head}${REDACTED}` : m,
  },
];

// Last: the generic `name = value` rule would otherwise eat the prefix a token rule keys on.
const STRUCTURAL_LAST: readonly SecretRule[] = [
  {
    name: 'assignment',
    re: ASSIGNMENT,
    replace: (m, key = '', sep = '', quote = '', value = '') =>
      isNonTrivialValue(value, quote !== '') ? `${key}${sep}${quote}${REDACTED}` : m,
  },
];

/** A token rule as a replacement: only the secret (group 1, else the whole match) is redacted. */
function tokenRule(rule: TokenRule): SecretRule & { keywords: readonly string[] } {
  // An empty alternative makes the regex match '' and report how many groups it has.
  const grouped = new RegExp(`${rule.re.source}|`).exec('')!.length > 1;
  return {
    name: rule.id,
    re: rule.re,
    keywords: rule.keywords,
    replace: (m, ...groups) => {
      const secret = grouped && typeof groups[0] === 'string' ? groups[0] : m;
      if (!rule.accepts(secret)) return m;
      return secret === m ? REDACTED : m.replace(secret, REDACTED);
    },
  };
}

const SECRET_RULES: readonly (SecretRule & { keywords?: readonly string[] })[] = [
  ...STRUCTURAL_FIRST,
  ...TOKEN_RULES.map(tokenRule),
  ...STRUCTURAL_LAST,
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces the caller's exact secret values (tokens, keys from the environment). */
export function redactExactValues(text: string, secrets: readonly string[]): string {
  return exactValuesRedactor(secrets)(text);
}

/** redactExactValues for many texts: the values' pattern is made once. */
export function exactValuesRedactor(secrets: readonly string[]): (text: string) => string {
  // Longest first, so a secret that contains another is replaced whole.
  const values = [...new Set(secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  const re = new RegExp(values.map(escapeRegExp).join('|'), 'g');
  return (text) => text.replace(re, REDACTED);
}

const MULTI_LINE = new Set(['private-key-open']);

/** Told each secret a rule redacted: the part of the match that became [REDACTED] (a key block's lines). */
export type OnSecret = (value: string) => void;

/**
 * Replaces every secret-like string matched by SECRET_RULES. Every rule but the private-key
 * blocks runs on one line at a time, and a key block keeps its lines: so redaction never joins,
 * splits or removes a line, and a fence, quote or HTML opener that neutralisation put on a line
 * stays what it was (a rule's `\s*` once ran from `token:` across a newline into a fence line).
 * `found`, when given, is told each value redacted (run-secrets.ts redacts it everywhere later).
 */
export function redactPatterns(text: string, found?: OnSecret): string {
  const lower = text.toLowerCase();
  const present = SECRET_RULES.filter((r) => !r.keywords?.length || r.keywords.some((k) => lower.includes(k)));
  let out = replaceClosedPemBlocks(text, reporting(keepLines as Replace, found));
  for (const rule of present) {
    if (MULTI_LINE.has(rule.name)) out = out.replace(rule.re, reporting(rule.replace as Replace, found));
  }
  const perLine = present.filter((r) => !MULTI_LINE.has(r.name));
  return out
    .split('\n')
    .map((line) => redactLine(line, perLine, found))
    .join('\n');
}

type Replace = (m: string, ...a: unknown[]) => string;

function redactLine(line: string, rules: typeof SECRET_RULES, found: OnSecret | undefined): string {
  if (line.length < 4) return line;
  const lower = line.toLowerCase();
  let out = line;
  for (const rule of rules) {
    if (rule.keywords?.length && !rule.keywords.some((k) => lower.includes(k))) continue;
    out = out.replace(rule.re, reporting(rule.replace as Replace, found));
  }
  return out;
}

/**
 * `replace`, telling `found` what it took out. Every rule keeps the syntax around the secret and
 * puts [REDACTED] where the value was, so the value is what lies between the match's and the
 * replacement's common start and end.
 */
function reporting(replace: Replace, found: OnSecret | undefined): Replace {
  if (!found) return replace;
  return (m, ...a) => {
    const r = replace(m, ...a);
    if (r !== m) found(removedPart(m, r));
    return r;
  };
}

function removedPart(match: string, replacement: string): string {
  let start = 0;
  const max = Math.min(match.length, replacement.length);
  while (start < max && match[start] === replacement[start]) start++;
  let end = 0;
  while (end < max - start && match[match.length - 1 - end] === replacement[replacement.length - 1 - end]) end++;
  return match.slice(start, match.length - end);
}
