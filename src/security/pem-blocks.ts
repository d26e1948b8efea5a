// Private-key blocks with their END line, found in linear time with a small constant. The regex
// this replaces, PEM_BEGIN + PEM_BODY{0,20000}? + an END line, tried an END
// line at each of up to 20,000 characters after every BEGIN line that had none: 0.45 s on 256 KiB
// of BEGIN lines, 15 s on the 8 MiB a verify command may print. Each part of it matches in one way
// only (a label is a run of [A-Z0-9 ] that must be followed by a `-`), so here each BEGIN line is
// checked once and the first END line after it is looked up from where the last lookup stopped.
import { firstMatchAt, forwardSearch } from './forward-search.js';

// A label of at most 100 characters on either side of PRIVATE KEY (real ones: RSA, ENCRYPTED,
// OPENSSH, PGP … BLOCK): unbounded, a long one was read again from each PRIVATE KEY in it (quadratic).
const PEM_LABEL = 'PRIVATE KEY[A-Z ]{0,100}-----';
export const PEM_BEGIN = `-----BEGIN [A-Z0-9 ]{0,100}${PEM_LABEL}`;
// What a PEM block holds between its BEGIN and END lines: base64 and its header lines
// (Proc-Type: 4,ENCRYPTED), and backslashes for a block written inside a JSON string (\n).
// Nothing else, so a block never swallows a fence, a quote or markup that neutralisation made inert.
const BODY_CHARS = 'A-Za-z0-9+/=:,.\\\\\\- \\t\\r\\n';
export const PEM_BODY = `[${BODY_CHARS}]`;
const NOT_BODY = new RegExp(`[^${BODY_CHARS}]`, 'g');
const BODY_MAX = 20_000;

/** A label's characters; a label, [A-Z0-9 ]{0,100}PRIVATE KEY[A-Z ]{0,100}, has LABEL_MAX at most. */
const LABEL_CHAR = /[A-Z0-9 ]/;
const LABEL_MAX = 100 + 'PRIVATE KEY'.length + 100;

/**
 * `text` with `replace` applied to each block, as text.replace(re, replace) does with
 * re = `${PEM_BEGIN}${PEM_BODY}{0,20000}?-----END [A-Z0-9 ]{0,100}${PEM_LABEL}` (global).
 */
export function replaceClosedPemBlocks(text: string, replace: (block: string) => string): string {
  const nextEnd = forwardSearch((from) => firstEndLine(text, from));
  const nextNotBody = forwardSearch((from) => firstMatchAt(NOT_BODY, text, from));
  let out = '';
  let copied = 0;
  for (let at = text.indexOf('-----BEGIN '); at >= 0; at = text.indexOf('-----BEGIN ', Math.max(at + 1, copied))) {
    const body = labelEnd(text, at + '-----BEGIN '.length);
    if (body < 0) continue;
    // The body is lazy: the first END line after it, if no character before it is not key material.
    const end = nextEnd(body);
    if (end < 0 || end - body > BODY_MAX || nextNotBody(body) < end) continue;
    const blockEnd = labelEnd(text, end + '-----END '.length);
    out += text.slice(copied, at) + replace(text.slice(at, blockEnd));
    copied = blockEnd;
  }
  return out + text.slice(copied);
}

/** Where the first `-----END <label>-----` at or after `from` starts, -1 if none. */
function firstEndLine(text: string, from: number): number {
  for (let at = text.indexOf('-----END ', from); at >= 0; at = text.indexOf('-----END ', at + 1)) {
    if (labelEnd(text, at + '-----END '.length) >= 0) return at;
  }
  return -1;
}

/**
 * After `-----BEGIN ` or `-----END `: the end of `[A-Z0-9 ]{0,100}PRIVATE KEY[A-Z ]{0,100}-----`,
 * -1 if that is not there. The label is the whole run of its characters, as `-` ends it.
 */
function labelEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && end - from <= LABEL_MAX && LABEL_CHAR.test(text[end]!)) end++;
  if (end - from > LABEL_MAX || !text.startsWith('-----', end)) return -1;
  const label = text.slice(from, end);
  for (let key = label.indexOf('PRIVATE KEY'); key >= 0 && key <= 100; key = label.indexOf('PRIVATE KEY', key + 1)) {
    const rest = label.slice(key + 'PRIVATE KEY'.length);
    if (rest.length <= 100 && !/[0-9]/.test(rest)) return end + 5;
  }
  return -1;
}
