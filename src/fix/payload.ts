// The fix payload and the check that the fixer accounted for every issue.
import type { FixResult } from '../agents/envelope.js';
import { findingAsData, type FindingData } from '../roles/finding-data.js';
import type { Finding } from '../domain/findings.js';

export interface FixPayload {
  prNumber: number;
  round: number;
  issuesToFix: Finding[];
  optionalIssues: Finding[];
}

/**
 * P0–P2 code findings that are not stuck go to the fixer; P3 are optional. Human
 * threads never go to the fixer, and stuck findings and open decisions are excluded.
 */
export function buildFixPayload(prNumber: number, round: number, findings: Finding[]): FixPayload {
  // An open decision waits for the maintainers; an answered one goes to the fixer with the chosen option.
  const code = findings.filter((f) => f.source.type === 'agent' && !f.stuck && (!f.decision || f.decision.answer));
  return {
    prNumber,
    round,
    issuesToFix: code.filter((f) => f.priority !== 'P3'),
    optionalIssues: code.filter((f) => f.priority === 'P3'),
  };
}

/**
 * fix-payload.json as the fixer and the gate read it: the same issues, their agent-written text
 * fenced as untrusted data (src/roles/finding-data.ts).
 */
export function payloadForAgents(
  payload: FixPayload,
  prFiles: ReadonlySet<string> = new Set(),
): Omit<FixPayload, 'issuesToFix' | 'optionalIssues'> & {
  issuesToFix: FindingData[];
  optionalIssues: FindingData[];
} {
  return {
    prNumber: payload.prNumber,
    round: payload.round,
    issuesToFix: payload.issuesToFix.map((f) => findingAsData(f, prFiles)),
    optionalIssues: payload.optionalIssues.map((f) => findingAsData(f, prFiles)),
  };
}

/** fixed + rejected + deferred + handed back must cover issuesToFix, each id once, none from outside the payload. */
export function checkAccounting(payload: FixPayload, result: FixResult): string | null {
  const want = new Set(payload.issuesToFix.map((f) => f.id));
  const optional = new Set(payload.optionalIssues.map((f) => f.id));
  const seen = new Set<string>();
  const named = [
    ...result.fixedIssues,
    ...result.rejectedIssues,
    ...result.deferredIssues,
    ...result.decisionIssues,
  ].map((i) => i.findingId);
  for (const id of named) {
    if (seen.has(id)) return `issue ${id} is listed twice in the fix result`;
    seen.add(id);
    if (!want.has(id) && !optional.has(id)) return `the fix result names ${id}, which was not in the fix payload`;
  }
  const missing = [...want].filter((id) => !seen.has(id));
  if (missing.length)
    return (
      `the fix result does not account for ${missing.join(', ')} ` +
      '(each issue must be fixed, rejected, deferred or handed back as a decision)'
    );
  return null;
}
