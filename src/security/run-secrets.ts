// What a run knows to be secret, redacted from everything it posts, logs or commits. Two kinds:
// the values it is given (the token's forms, the credential variables of its environment), and
// the values the secret rules recognised in any text the run has read or redacted so far. A rule
// sees a secret by its context (`aws_secret_access_key = …`, a webhook URL, `AccountKey=…`); an
// agent that quotes the value with its context in one field and bare in the next (a title, a
// suggestion) would leak the bare copy. So a recognised value is remembered, and redacted wherever
// it appears later in the run, in any field, with or without its context.
//
// Only a value that cannot be a word is remembered: a rule that takes `token: "production"` for a
// secret must not have every "production" of the run redacted (see learnable()).
import { exactValuesRedactor, redactExactValues, redactPatterns } from './secret-patterns.js';

/** Shortest value remembered: shorter ones are too likely to occur by chance. */
const MIN_CHARS = 8;
/** Longest value remembered: a "value" longer than this is text a rule ran over, not a secret. */
const MAX_CHARS = 4096;
/** Least entropy (bits per character) of a remembered value: `aaaa1111` and `T00000000` are not secrets. */
const MIN_ENTROPY = 2.5;
/** A value of letters alone is remembered only this long and in mixed case (a CamelCase word is shorter). */
const MIN_LETTERS_ONLY = 12;
/** Where a value holding a URL's or a key's parts is split, each part remembered on its own too. */
const PARTS = /[/:@?&=#]+/;

export class RunSecrets {
  /** Every exact value redacted: the given ones, then the learned ones. Read at each redaction. */
  readonly values: string[] = [];
  private readonly known = new Set<string>();

  constructor(given: readonly string[] = []) {
    this.add(...given);
  }

  /** Values redacted exactly as given, however short or plain (the token, a credential variable). */
  add(...values: string[]): void {
    for (const v of values) this.keep(v);
  }

  /**
   * Remembers the values the secret rules recognise in `data`: a text, or every text in a parsed
   * answer (JSON escapes a quote, and `"key = \"value\""` hides its value from the rules).
   */
  learn(data: unknown): void {
    for (const text of stringsIn(data)) if (text) redactPatterns(text, (found) => this.remember(found));
  }

  /**
   * `text` with every secret redacted: what the rules recognise in it is learned first, so every
   * copy of it goes, the bare ones before the one in context included; then the known values, the
   * longest first (a value that holds an older one goes whole), then the rules.
   */
  redact(text: string): string {
    this.learn(text);
    return redactPatterns(redactExactValues(text, this.values));
  }

  /** Keeps what of a recognised value can be remembered. */
  private remember(found: string): void {
    for (const v of learnable(found)) this.keep(v);
  }

  private keep(value: string): void {
    if (value.length < 4 || this.known.has(value)) return;
    this.known.add(value);
    this.values.push(value);
  }
}

/** Redaction's exact values: a plain list, or a run's, which also learns from what it redacts. */
export type Secrets = readonly string[] | RunSecrets;

/** The exact values `secrets` redacts now. */
export function knownValues(secrets: Secrets): readonly string[] {
  return secrets instanceof RunSecrets ? secrets.values : secrets;
}

/**
 * `data` (JSON-like) with the exact values `secrets` knows redacted from every string in it, before
 * it is written as JSON (the report JSON), where a value's escaped form would not match it.
 */
export function redactValuesIn<T>(data: T, secrets: Secrets): T {
  const values = knownValues(secrets);
  if (values.length === 0) return data;
  return mapStrings(data, exactValuesRedactor(values)) as T;
}

/** Every string in JSON-like `data`, `data` itself when it is one. */
function stringsIn(data: unknown): string[] {
  const out: string[] = [];
  mapStrings(data, (s) => (out.push(s), s));
  return out;
}

function mapStrings(v: unknown, f: (s: string) => string): unknown {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, f)]));
  return v;
}

/**
 * What of a value a rule recognised is remembered: each of its lines (a key block) and, for a
 * value made of parts (a webhook URL's path, `user:token`), each part as well as the whole, where
 * it could not be a word (isDistinctive).
 */
export function learnable(found: string): string[] {
  const out = new Set<string>();
  for (const line of found.split('\n')) {
    const value = line.trim();
    for (const v of [value, ...value.split(PARTS)]) if (isDistinctive(v)) out.add(v);
  }
  return [...out];
}

/**
 * Long enough, no spaces, not what redaction writes, varied enough, and either letters with digits
 * or long enough in mixed case past its first letter: `Something`, `read-only`, `JavaScript` and
 * `x-access-token` never are; `wJalrXUtnFEMI/K7MDENG`, `Passw0rd!`, a base64 key are.
 */
function isDistinctive(v: string): boolean {
  if (v.length < MIN_CHARS || v.length > MAX_CHARS || /\s/.test(v) || v.includes('[REDACTED]')) return false;
  if (entropy(v) < MIN_ENTROPY) return false;
  const digits = /\d/.test(v);
  const letters = /[A-Za-z]/.test(v);
  if (digits && letters) return true;
  return !digits && v.length >= MIN_LETTERS_ONLY && /[a-z]/.test(v) && /[A-Z]/.test(v.slice(1));
}

/** Shannon entropy in bits per character. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / s.length) * Math.log2(n / s.length);
  return bits;
}
