// Whether a failed call failed because the model cannot take it now: the account's quota is
// spent, the provider rate-limits it, or the model is overloaded. Each CLI says so in its own
// words (checked against each pinned CLI and the fake model server, test/agents/quota.test.ts):
//   claude   `API Error: Request rejected (429) · …`, `API Error: 529 Overloaded. …`,
//            `Repeated 529 Overloaded errors` (after its own retries)
//   codex    `Quota exceeded. Check your plan and billing details.` (insufficient_quota, not
//            retried), `exceeded retry limit, last status: 429 Too Many Requests`,
//            `unexpected status 529 …` / `unexpected status 503 Service Unavailable: …`
//   gemini   `You have exhausted your daily quota on this model.` (exit code 173, not retried),
//            `RESOURCE_EXHAUSTED`, `Attempt N failed with status 429. Retrying with backoff...`
//   opencode `<provider message> (HTTP 429)`, `(HTTP 529)`, `(HTTP 503)`
//   command  whatever it prints: one of the words below on stderr, with a non-zero exit
// Only a call that ended without an answer is classified: a model that answered badly is no
// quota problem, and its text could say anything.
import type { QuotaKind } from '../domain/agent-run.js';

export interface QuotaFailure {
  kind: QuotaKind;
  /** The line of the CLI's message that says so, shortened, for the report. */
  detail: string;
}

const PATTERNS: [QuotaKind, RegExp][] = [
  ['quota', /quota|usage limit|insufficient_quota|resource_exhausted|credit balance is too low/i],
  ['rate limit', /\b429\b|rate[ _-]?limit|too many requests/i],
  ['overloaded', /\b529\b|overloaded|\b503\b|service unavailable|\bUNAVAILABLE\b/i],
];

const DETAIL_CHARS = 200;
/** Paths and URLs: a checkout or temp folder named `quota-service` says nothing about a quota. */
// The look-behind starts a match only where a word starts: /\S*\/\S*/ alone retries from every
// character of a long word without a slash (quadratic in it); the match is the same whole word.
const PATHS = /(?<!\S)\S*\/\S*/g;

/** The quota, rate-limit or overload failure `message` describes, or undefined. */
export function quotaFailure(message: string): QuotaFailure | undefined {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  for (const [kind, pattern] of PATTERNS) {
    const line = lines.find((l) => pattern.test(l.replace(PATHS, ' ')));
    if (line) return { kind, detail: line.length > DETAIL_CHARS ? `${line.slice(0, DETAIL_CHARS)}…` : line };
  }
  return undefined;
}
