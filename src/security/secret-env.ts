// Exact values the redactor removes from everything the action posts or logs (docs/security.md,
// "Tokens"): the GitHub token, the Actions runtime tokens, and every environment value whose name
// says it is a credential, each also in the base64 forms that reach logs and headers. Patterns
// (secret-patterns.ts) catch secrets of known formats; this list catches the ones actually here.
// Only for redaction: which variables agents may see is decided in src/agents/env*.ts.

// Always secret, whatever they look like (runner-issued bearer tokens).
const ALWAYS = new Set(['GITHUB_TOKEN', 'GH_TOKEN', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN']);
// A credential word anywhere in the name (API_KEY, NPM_TOKEN, DB_PASSWORD, CLIENT_SECRET,
// GOOGLE_APPLICATION_CREDENTIALS, SSH_PRIVATE_KEY, INPUT_GITHUB-TOKEN, APIKEY).
const NAME_WORDS = /(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE|COOKIE|SIGNATURE)/i;
// Short words only as a whole part of the name, so BYPASS, AUTHOR or PATH do not count.
const NAME_PARTS = new Set(['PASS', 'PWD', 'AUTH', 'PAT', 'SAS', 'DSN', 'SESSION', 'CERT', 'CREDS']);
// Names that match the words above but hold no secret: identifiers and locations
// (AWS_ACCESS_KEY_ID, ACTIONS_ID_TOKEN_REQUEST_URL, SSH_KEY_PATH, GOOGLE_APPLICATION_CREDENTIALS_FILE).
const NOT_SECRET = /_(?:KEY_ID|KEY_NAME|URL|PATH|FILE|DIR)$/i;

/** Values too short or too plain to be a credential; redacting them would mangle prose. */
function isTrivial(value: string): boolean {
  const v = value.trim();
  if (v.length < 8) return true;
  if (/^(?:true|false|null|none|undefined|yes|no)$/i.test(v)) return true;
  if (/^[0-9.]+$/.test(v)) return true; // numbers, versions
  if (/^(?:\/|~\/|\.\.?\/)/.test(v)) return true; // paths (SSH_AUTH_SOCK, *_KEY_FILE)
  return /^(.)\1*$/.test(v);
}

export function looksSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (ALWAYS.has(upper)) return true;
  if (NOT_SECRET.test(upper)) return false;
  return NAME_WORDS.test(upper) || upper.split(/[_\-.]/).some((part) => NAME_PARTS.has(part));
}

/** Every non-trivial value of a secret-looking variable, with its base64 forms. */
export function secretValuesFromEnv(env: NodeJS.ProcessEnv): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isTrivial(value) || !looksSecretName(name)) continue;
    for (const form of encodedForms(value)) values.add(form);
  }
  return [...values];
}

/**
 * A value and its base64 encoding (padding dropped, so a padded or unpadded copy both contain
 * it). Base64 is how a token travels in a Basic authorization header and how it shows up when
 * a tool prints its git config.
 */
function encodedForms(value: string): string[] {
  return [value, Buffer.from(value).toString('base64').replace(/=+$/, '')];
}

/**
 * The forms of the GitHub token: itself, its base64, and the base64 of `x-access-token:<token>`,
 * the `http.extraheader` actions/checkout writes.
 */
export function tokenForms(token: string): string[] {
  if (!token) return [];
  return [...encodedForms(token), encodedForms(`x-access-token:${token}`)[1]!];
}
