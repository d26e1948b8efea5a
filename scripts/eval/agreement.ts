// How often two reviewers reported the same problems in round 1 of a relay run (a helper agent
// answering each call through the `command` agent's relay folder). Counting what models say they
// were unsure of gives a different number on every run of the same prompts; what the loop depends on
// is whether two reviewers' findings meet as one problem. So this reads each round-1 reviewer
// request and its answer, groups them with the action's own groupFindings, and counts the groups
// both reviewers reported, per case (per checkout the requests name).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnvelope, reviewerResultSchema } from '../../src/agents/envelope.js';
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
  const byCase = new Map<string, ReturnType<typeof normalizeFinding>[]>();
  const counts = new Map<string, Record<string, number>>();
  const names = readdirSync(relayDir)
    .filter((f) => /^req-.*reviewer.*\.json$/.test(f))
    .sort();
  for (const name of names) {
    const req = JSON.parse(readFileSync(path.join(relayDir, name), 'utf8')) as RelayRequest;
    if (String(req.round) !== '1') continue;
    const answer = answerOf(path.join(relayDir, name.replace(/^req-/, 'res-').replace(/\.json$/, '.txt')));
    if (!answer) continue;
    // An answer the action would refuse counts as no answer, as it does in the run.
    const result = (() => {
      try {
        return parseEnvelope(answer, reviewerResultSchema);
      } catch {
        return null;
      }
    })();
    if (!result) continue;
    const found = byCase.get(req.cwd) ?? [];
    found.push(...result.findings.map((f) => normalizeFinding(f, req.name)));
    byCase.set(req.cwd, found);
    counts.set(req.cwd, { ...counts.get(req.cwd), [req.name]: result.findings.length });
  }
  return [...byCase].map(([cwd, found]) => {
    const groups = groupFindings(found);
    const shared = groups.filter((g) => g.reportedBy.length > 1).length;
    return { cwd, findings: counts.get(cwd) ?? {}, groups: groups.length, shared };
  });
}

function answerOf(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
