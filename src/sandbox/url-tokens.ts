// The tokens a registry's URL carries besides its user and password (url-credentials.ts): a query
// parameter named as a credential (`?token=`, `&apikey=`, an S3 or Azure signature), and the path
// segment that is the token on a host known to put it there (Gemfury: `https://pypi.fury.io/<token>/`).
// A path segment of any other host is kept: nothing tells a token from a folder's name there.
// Both are linear scans, as the rest of this folder's: a setup command writes these files, and a
// regex that read on from every `?`, `&` or `://` in a long run of them would be quadratic.
import { firstMatchAt } from '../security/forward-search.js';
import { credentialKey } from './credential-key.js';

/** Parameters that hold a secret whatever `credentialKey` says of their name (S3's and Azure's signatures). */
const SECRET_PARAMETERS = new Set([
  'token',
  'access_token',
  'auth',
  'apikey',
  'api_key',
  'key',
  'secret',
  'sig',
  'signature',
  'password',
  'pass',
  'pwd',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
]);
/** Where a parameter starts: a query's first `?`, or one after it (`?url=https://h/?token=` is two). */
const PARAMETER_START = /[?&]/g;
/** What a parameter's name never holds: the `=` after it, or what would end the parameter first. */
const NAME_STOP = /[=?&#\s'"<>]/g;
/** Where a value ends: the next parameter, the fragment, or the end of the URL in its file. */
const VALUE_STOP = /[&#\s'"<>]/g;
/** Where a URL's host ends. */
const HOST_STOP = /[/?#\s'"<>@]/g;
const SEGMENT_STOP = /[/?#\s'"<>]/g;

/** `text` without a secret query parameter or a Gemfury token in the path of any URL in it. */
export function withoutUrlTokens(text: string): string {
  return withoutSecretParameters(withoutPathTokens(text));
}

/**
 * Every `name=value` after a `?` or `&` whose name is a credential's goes, with its `&`; the `?`
 * goes when none is left after it (`?token=S&a=1` → `?a=1`, `?token=S` → nothing). Not only in
 * a URL: a kept line holds no query that is not a URL's, and one that is not goes no further.
 */
function withoutSecretParameters(text: string): string {
  let out = '';
  let copied = 0;
  // A `?` whose parameter went, not yet written: the next kept parameter right after it gets it.
  let question = false;
  for (let at = firstMatchAt(PARAMETER_START, text, 0); at < text.length;) {
    let nameStart = at + 1;
    // `&amp;` is how XML writes the `&` (NuGet's `value="…?a=1&amp;apikey=…"`).
    if (text[at] === '&' && text.startsWith('amp;', nameStart)) nameStart += 4;
    const nameEnd = firstMatchAt(NAME_STOP, text, nameStart);
    const follows = question && at === copied && text[at] === '&';
    if (question && !follows) question = false;
    if (text[nameEnd] !== '=' || !secretParameter(text.slice(nameStart, nameEnd))) {
      if (follows) {
        out += '?';
        copied = nameStart;
        question = false;
      }
      at = firstMatchAt(PARAMETER_START, text, nameEnd);
      continue;
    }
    const valueEnd = firstMatchAt(VALUE_STOP, text, nameEnd + 1);
    out += text.slice(copied, at);
    copied = valueEnd;
    question ||= text[at] === '?';
    at = firstMatchAt(PARAMETER_START, text, valueEnd);
  }
  return out + text.slice(copied);
}

function secretParameter(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // A `%` that starts no escape: the name as written.
  }
  return SECRET_PARAMETERS.has(decoded.toLowerCase()) || credentialKey(decoded);
}

/**
 * Gemfury's repository URLs put the token first in the path (`https://npm-proxy.fury.io/<token>/<account>/`),
 * on every `*.fury.io` host: that segment goes with its `/`, which leaves the account's address
 * that asks for credentials (`https://pypi.fury.io/<account>/`).
 */
function withoutPathTokens(text: string): string {
  let out = '';
  let copied = 0;
  for (let sep = text.indexOf('://'); sep >= 0; sep = text.indexOf('://', sep + 3)) {
    const hostEnd = firstMatchAt(HOST_STOP, text, sep + 3);
    if (text[hostEnd] !== '/' || !furyHost(text.slice(sep + 3, hostEnd))) continue;
    const segmentEnd = firstMatchAt(SEGMENT_STOP, text, hostEnd + 1);
    if (segmentEnd === hostEnd + 1) continue;
    out += text.slice(copied, hostEnd + 1);
    copied = text[segmentEnd] === '/' ? segmentEnd + 1 : segmentEnd;
  }
  return out + text.slice(copied);
}

function furyHost(hostAndPort: string): boolean {
  const colon = hostAndPort.lastIndexOf(':');
  const host = (colon < 0 ? hostAndPort : hostAndPort.slice(0, colon)).toLowerCase();
  return host === 'fury.io' || host.endsWith('.fury.io');
}
