// Memory across runs (SPEC §7): earlier marker comments written by the token's own
// identity. Anyone else's comment is never trusted as state, whatever it contains.
import type { IssueComment } from './github/comments.js';
import { MARKER, decodeState, type HiddenState } from './report/state.js';
import type { FixedFingerprint } from './review/stuck.js';

// A head that ended in one of these was reviewed for good; a failed run may be retried.
const FINAL = new Set(['converged', 'manual', 'review-only', 'max-rounds']);

export interface PriorRuns {
  states: HiddenState[];
  /** A final state recorded for this head, if any. */
  finalForHead: HiddenState | null;
  fixedIds: string[];
  /** Fingerprints of every finding an earlier run reported fixed. */
  fixed: FixedFingerprint[];
  stuckIds: string[];
}

/**
 * `job` names the workflow job of this run: a head another job reviewed (say, a review-only
 * workflow next to a fixing one) is not "already reviewed" for this one. Fixes and the
 * action's own fix commits count whichever job made them.
 */
export function readPriorRuns(comments: IssueComment[], ownLogin: string, headSha: string, job: string | null = null): PriorRuns {
  const states = comments
    .filter((c) => c.author.toLowerCase() === ownLogin.toLowerCase() && c.body.includes(MARKER))
    .map((c) => decodeState(c.body))
    .filter((s): s is HiddenState => s !== null);
  const sameJob = (s: HiddenState) => !job || !s.job || s.job === job;
  const finalForHead = [...states].reverse().find((s) => sameJob(s) && s.headSha === headSha && s.status !== null && FINAL.has(s.status)) ?? null;
  const uniq = (xs: string[]) => [...new Set(xs)];
  return {
    states,
    finalForHead,
    fixedIds: uniq(states.flatMap((s) => s.fixedIds)),
    fixed: fingerprints(states),
    stuckIds: uniq(states.flatMap((s) => s.stuckIds)),
  };
}

/** Fingerprints where the state has them; a bare id (older state) still matches by id. */
function fingerprints(states: HiddenState[]): FixedFingerprint[] {
  const byId = new Map<string, FixedFingerprint>();
  for (const s of states) {
    for (const id of s.fixedIds) if (!byId.has(id)) byId.set(id, { id, category: '', file: null, title: '' });
    for (const f of s.fixed ?? []) byId.set(f.id, f);
  }
  return [...byId.values()];
}
