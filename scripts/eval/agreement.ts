// How often two reviewers reported the same problems in round 1 of a relay run (a helper agent
// answering each call through the `command` agent's relay folder). Counting what models say they
// were unsure of gives a different number on every run of the same prompts; what the loop depends on
// is whether two reviewers' findings meet as one problem. So this reads each round-1 reviewer
// request and its answer, groups them with the action's own groupFindings, and counts the groups
// both reviewers reported, per case (per checkout the requests name).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnvelope, reviewerResultSchema, type RawFinding } from '../../src/agents/envelope.js';
import type { Finding } from '../../src/domain/findings.js';
import { groupFindings, normalizeFinding } from '../../src/review/findings.js';

export interface CaseAgreement {
  /** The checkout the case's requests ran in. */
  cwd: string;
  /** Findings per reviewer, by its name (`reviewer-1`, …). */
  findings: Record<string, number>;
  /** Problems after grouping, and those more than one reviewer reported. */
  groups: number;
  shared: number;
}

interface RelayRequest {
  name: string;
  round: string | number;
  cwd: string;
}

/** Round-1 agreement of each case in a relay folder, in the order the cases' requests came. */
export function roundOneAgreement(relayDir: string): CaseAgreement[] {
  // Each case's findings by reviewer: the counts and the grouping both come from it.
  const byCase = new Map<string, Record<string, Finding[]>>();
  const names = readdirSync(relayDir)
    .filter((f) => /^req-.*reviewer.*\.json$/.test(f))
    .sort();
  for (const name of names) {
    const req = JSON.parse(readFileSync(path.join(relayDir, name), 'utf8')) as RelayRequest;
    if (String(req.round) !== '1') continue;
    const found = reviewOf(path.join(relayDir, name.replace(/^req-/, 'res-').replace(/\.json$/, '.txt')));
    if (!found) continue;
    const reviewers = byCase.get(req.cwd) ?? {};
    reviewers[req.name] = found.map((f) => normalizeFinding(f, req.name));
    byCase.set(req.cwd, reviewers);
  }
  return [...byCase].map(([cwd, reviewers]) => {
    const groups = groupFindings(Object.values(reviewers).flat());
    const shared = groups.filter((g) => g.reportedBy.length > 1).length;
    const findings = Object.fromEntries(Object.entries(reviewers).map(([n, found]) => [n, found.length]));
    return { cwd, findings, groups: groups.length, shared };
  });
}

/** The findings of an answer; null when there is none, or the action would refuse it, as it does in the run. */
function reviewOf(file: string): RawFinding[] | null {
  try {
    return parseEnvelope(readFileSync(file, 'utf8'), reviewerResultSchema).findings;
  } catch {
    return null;
  }
}
