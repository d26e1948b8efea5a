// gradle.properties as a call may see it. It holds the build's settings and, beside them, the
// signing and publishing passwords (and any project property): only Gradle's own settings and the
// JVM's system properties are kept, none that names a credential (`systemProp.https.proxyPassword`),
// and of `org.gradle.jvmargs` no `-D…` flag that names one. Read as Java reads a properties file: a
// line ending in an odd number of `\` goes on on the next, its leading blanks dropped, and `\t`,
// `\uXXXX`, `\"` are what they stand for; then split as Gradle splits JVM arguments, at blanks
// outside `"…"` and `'…'` (`-Dx.password="a b"` is one flag).
import { credentialKey } from './credential-key.js';
import { stripUrlCredentials } from './url-credentials.js';

const KEPT_KEYS = /^(org\.gradle\.|systemProp\.|kotlin\.|android\.)/;
const ESCAPED: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f' };

export function gradleProperties(text: string): string {
  const out: string[] = [];
  const physical = text.split('\n');
  for (let i = 0; i < physical.length; i++) {
    // A logical line: its physical lines joined by `\n`, each but the last ending in its `\`.
    // A comment is never continued: a `\` ending it leaves the next line a line of its own.
    if (/^\s*[#!]/.test(physical[i]!) || physical[i]!.trim() === '') continue;
    const first = i;
    while (continues(physical[i]!) && i + 1 < physical.length) i++;
    const line = physical.slice(first, i + 1).join('\n');
    const setting = /^\s*([^=:\s]+)\s*[=:]/.exec(line);
    const key = setting ? decoded(setting[1]!) : '';
    if (!setting || !KEPT_KEYS.test(key) || credentialKey(key) || /pass|user/i.test(key)) continue;
    out.push(stripUrlCredentials(setting[0] + withoutCredentialFlags(line.slice(setting[0].length))));
  }
  return out.join('\n');
}

/** Whether a physical line goes on on the next: it ends in an odd number of `\` (`\\` is one `\`). */
function continues(line: string): boolean {
  let end = line.length;
  if (line[end - 1] === '\r') end--;
  let backslashes = 0;
  while (backslashes < end && line[end - 1 - backslashes] === '\\') backslashes++;
  return backslashes % 2 === 1;
}

/**
 * The character at `i` as Java reads it, and where the next starts: '' for a line's continuation
 * (`\`, the line break and the next line's leading blanks), which joins what is on either side.
 */
function unit(s: string, i: number): [end: number, ch: string] {
  if (s[i] !== '\\') return [i + 1, s[i]!];
  const next = s[i + 1];
  if (next === undefined) return [i + 1, ''];
  if (next === '\n' || next === '\r') {
    let end = i + 2;
    if (next === '\r' && s[end] === '\n') end++;
    while (end < s.length && (s[end] === ' ' || s[end] === '\t' || s[end] === '\f')) end++;
    return [end, ''];
  }
  if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) {
    return [i + 6, String.fromCharCode(parseInt(s.slice(i + 2, i + 6), 16))];
  }
  return [i + 2, ESCAPED[next] ?? next];
}

function decoded(s: string): string {
  let out = '';
  for (let i = 0; i < s.length;) {
    const [end, ch] = unit(s, i);
    out += ch;
    i = end;
  }
  return out;
}

/**
 * `value` without each `-Dname=…` whose name is a credential's: `org.gradle.jvmargs` hands the
 * JVM system properties, a trust store's password among them (`-Djavax.net.ssl.trustStorePassword=…`).
 * A flag that goes leaves its line breaks, so that the lines after it stay where they were.
 */
function withoutCredentialFlags(value: string): string {
  let out = '';
  for (let i = 0; i < value.length;) {
    const [end, ch] = unit(value, i);
    if (ch === '' || /\s/.test(ch)) {
      out += value.slice(i, end);
      i = end;
      continue;
    }
    const start = i;
    let bare = '';
    let quote = '';
    let breaks = '';
    while (i < value.length) {
      const [end, ch] = unit(value, i);
      if (!quote && /\s/.test(ch)) break;
      if (ch === '') breaks += value.slice(i, end);
      else if (ch === quote) quote = '';
      else if (!quote && (ch === '"' || ch === "'")) quote = ch;
      else bare += ch;
      i = end;
    }
    const name = /^-D([^=]+)=/.exec(bare)?.[1];
    out += name !== undefined && credentialKey(name) ? breaks : value.slice(start, i);
  }
  return out;
}
