// Loads the secret formats of secret-rules.json: most are the token rules of gitleaks' default
// config (MIT; version, commit and licence in the file), translated from Go RE2 to JavaScript.
// A maintained rule set as data keeps up with new token formats by updating one file; a
// hand-written list only grows when someone notices a leak.
import data from './secret-rules.json' with { type: 'json' };

interface RuleData {
  id: string;
  source: string;
  regex: string;
  flags?: string;
  keywords?: string[];
  entropy?: number;
  requireDigit?: boolean;
}

export interface TokenRule {
  id: string;
  source: string;
  re: RegExp;
  /** Lower-cased; the rule runs only when the lower-cased text contains one (gitleaks' prefilter). */
  keywords: readonly string[];
  /** Whether the matched secret is real enough to redact (entropy, digit). */
  accepts(secret: string): boolean;
}

/** Shannon entropy in bits per character, as gitleaks computes it for its `entropy` threshold. */
function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function compile(rule: RuleData): TokenRule {
  const minEntropy = rule.entropy ?? 0;
  return {
    id: rule.id,
    source: rule.source,
    re: new RegExp(rule.regex, `g${rule.flags ?? ''}`),
    keywords: (rule.keywords ?? []).map((k) => k.toLowerCase()),
    accepts: (secret) => shannonEntropy(secret) >= minEntropy && (!rule.requireDigit || /\d/.test(secret)),
  };
}

export const TOKEN_RULES: readonly TokenRule[] = (data.rules as RuleData[]).map(compile);
