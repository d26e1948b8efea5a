// Whether a setting's name is a credential's: the one classifier for the keys of every registry
// format (strip-credentials.ts) and for the parameters of a URL's query in them (url-tokens.ts).

/** Words that make a key a credential's wherever they stand in it (`npmAuthToken`, `_password`). */
const CREDENTIAL_WORDS =
  /auth|token|passw|passphrase|secret|credential|api[_-]?key|cookie|bearer|oauth|signing|keystore/i;
/** Words that make a key a credential's as its last word (`username`, `//host/:email`, npm's `keyfile`). */
const CREDENTIAL_ENDINGS = new Set([
  'user',
  'username',
  'email',
  'ident',
  'cert',
  'certfile',
  'key',
  'keyfile',
  'header',
  'headers',
  'basic',
  // Sonar's `sonar.login` holds its token.
  'login',
]);

export function credentialKey(key: string): boolean {
  const bare = withoutEdgeQuotes(key);
  const last = bare
    .split(/[._\-:/]|(?=[A-Z])/)
    .pop()!
    .toLowerCase();
  return CREDENTIAL_WORDS.test(bare) || CREDENTIAL_ENDINGS.has(last);
}

/**
 * `key` without the `:`, `"` and `'` at its start and end, as key.replace(/^[:"']+|[:"']+$/g, '')
 * does. That regex is quadratic in a long run of them inside a key (a setup command may write
 * these files): it read the run again from each of its characters, looking for the end.
 */
function withoutEdgeQuotes(key: string): string {
  const edge = (c: string): boolean => c === ':' || c === '"' || c === "'";
  let start = 0;
  let end = key.length;
  while (start < end && edge(key[start]!)) start++;
  while (end > start && edge(key[end - 1]!)) end--;
  return key.slice(start, end);
}
