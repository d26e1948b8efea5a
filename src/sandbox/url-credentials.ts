// The user and password of every URL in a registry configuration, taken out in linear time: a
// setup command writes these files, and the regex this replaces,
//   /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s'"<>@/]*@|[^\s'"<>@/:]*:(?!\d+(?:\/|$))[^\s'"<>@]*@)/gi
// read a scheme's characters again from each word in a run like `a.a.a.…`, and the rest of the
// text again from each `a://a:` (8 to 16 s on 256 KiB). Here each `://` is looked at once: every
// class in that regex is a run that ends where the next part's first character cannot be in it,
// so each part matches in exactly one way, and what lies after `://` does not depend on where the
// scheme started.
import { firstMatchAt, forwardSearch } from '../security/forward-search.js';
import { withoutUrlTokens } from './url-tokens.js';

const SCHEME_CHAR = /[a-z0-9+.-]/i;
const LETTER = /[a-z]/i;
const WORD_CHAR = /\w/;
/** What the user part `[^\s'"<>@/]*` stops at; the password part's stops also at `:`. */
const USER_STOP = /[\s'"<>@/]/g;
const NAME_STOP = /[\s'"<>@/:]/g;
const PASSWORD_STOP = /[\s'"<>@]/g;
const NON_DIGIT = /\D/g;

/**
 * `scheme://user:password@host` → `scheme://host`, also with a `/` the password should have
 * escaped (`user:pa/ss@host`; never a port: `host:8443/@scope` stays); Conda's `/t/<token>`, a query's
 * `?token=` and Gemfury's path token too (url-tokens.ts).
 */
export function stripUrlCredentials(text: string): string {
  const passwordEnd = forwardSearch((from) => firstMatchAt(PASSWORD_STOP, text, from));
  let out = '';
  let copied = 0;
  for (let sep = text.indexOf('://'); sep >= 0; sep = text.indexOf('://', sep + 1)) {
    if (!hasScheme(text, copied, sep)) continue;
    const end = userInfoEnd(text, sep + 3, passwordEnd);
    if (end < 0) continue;
    out += text.slice(copied, sep + 3);
    copied = end;
  }
  // `/t/<token>/` → `/`; at the URL's end (Conda's `channel_alias`), `/t/<token>` → nothing.
  return withoutUrlTokens(out + text.slice(copied)).replace(/\/t\/[A-Za-z0-9._-]+(\/|(?=[\s'"<>,]|$))/g, '$1');
}

/**
 * Whether `\b[a-z][a-z0-9+.-]*` ends right before `sep`, starting at or after `from` (a match
 * never starts inside the one before it). The greedy run can only end before `://` where the
 * scheme characters end, so it starts in that run; its characters are read once, as no run
 * reaches past a `:`.
 */
function hasScheme(text: string, from: number, sep: number): boolean {
  let start = sep;
  while (start > from && SCHEME_CHAR.test(text[start - 1]!)) start--;
  for (let at = start; at < sep; at++) {
    if (LETTER.test(text[at]!) && (at === 0 || !WORD_CHAR.test(text[at - 1]!))) return true;
  }
  return false;
}

/**
 * Where `user@` or `user:password@` after `://` at `at` ends, -1 if neither is there. Each run
 * stops at a character the part after it needs, so backtracking never finds another match.
 */
function userInfoEnd(text: string, at: number, passwordEnd: (from: number) => number): number {
  const user = firstMatchAt(USER_STOP, text, at);
  if (text[user] === '@') return user + 1;
  const colon = firstMatchAt(NAME_STOP, text, at);
  if (text[colon] !== ':') return -1;
  // (?!\d+(?:\/|$)): a port.
  const digits = firstMatchAt(NON_DIGIT, text, colon + 1);
  if (digits > colon + 1 && (digits === text.length || text[digits] === '/')) return -1;
  // The password part reads across later `://`s: its end is looked up from where the last stopped.
  const password = passwordEnd(colon + 1);
  return text[password] === '@' ? password + 1 : -1;
}
