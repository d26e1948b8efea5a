// Memory across runs (SPEC §7): earlier marker comments written by the token's own
// identity. Anyone else's comment is never trusted as state, whatever it contains.
import type { IssueComment } from './github/comments.js';
import { MARKER, decodeState, type HiddenState } from './report/state.js';

// A head that ended in one of these was reviewed for good; a failed run may be retried.
const FINAL = new Set(['converged', 'manual', 'review-only', 'max-rounds']);

export interface PriorRuns {
  states: HiddenState[];
  /** A final state recorded for this head, if any. */
  finalForHead: HiddenState | null;
  fixedIds: string[];
  stuckIds: string[];
}

export function readPriorRuns(comments: IssueComment[], ownLogin: string, headSha: string): PriorRuns {
  const states = comments
    .filter((c) => c.author.toLowerCase() === ownLogin.toLowerCase() && c.body.includes(MARKER))
    .map((c) => decodeState(c.body))
    .filter((s): s is HiddenState => s !== null);
  const finalForHead = [...states].reverse().find((s) => s.headSha === headSha && s.status !== null && FINAL.has(s.status)) ?? null;
  const uniq = (xs: string[]) => [...new Set(xs)];
  return {
    states,
    finalForHead,
    fixedIds: uniq(states.flatMap((s) => s.fixedIds)),
    stuckIds: uniq(states.flatMap((s) => s.stuckIds)),
  };
}
