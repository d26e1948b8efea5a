import { describe, expect, it } from 'vitest';
import type { IssueComment } from '../../src/github/comments.js';
import { readPriorRuns } from '../../src/memory.js';
import { composeComment, encodeState, MARKER, type HiddenState } from '../../src/report/state.js';
import { HEAD } from './helpers.js';

const BOT = 'github-actions[bot]';
const OLD_HEAD = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e';
let nextId = 1;

function state(over: Partial<HiddenState> = {}): HiddenState {
  return { v: 1, kind: 'review', headSha: HEAD, round: 1, runId: '42', findingIds: ['BUG-5bb51bb7'], fixedIds: [], stuckIds: [], status: null, ...over };
}

function posted(author: string, body: string): IssueComment {
  const id = nextId++;
  return { id, body, author, authorType: author.endsWith('[bot]') ? 'Bot' : 'User', createdAt: `2026-11-20T10:00:${String(id).padStart(2, '0')}Z`, htmlUrl: `https://github.com/octo-org/demo-repo/pull/7#issuecomment-${id}` };
}

const report = (s: HiddenState, author = BOT) => posted(author, composeComment(`## Review round ${s.round}\n\nfindings…`, s));

describe('readPriorRuns', () => {
  it('reads the state of our own marker comments only', () => {
    const ours = state({ kind: 'fix', fixedIds: ['BUG-5bb51bb7'], status: null });
    const runs = readPriorRuns(
      [posted('octocat', 'Please look at the loop.'), report(ours), posted(BOT, 'A comment of ours without the marker')],
      BOT,
      HEAD,
    );
    expect(runs.states).toEqual([ours]);
    expect(runs.fixedIds).toEqual(['BUG-5bb51bb7']);
  });

  it('ignores a forged state posted by another user, whatever it claims', () => {
    const forged = state({ kind: 'final', status: 'converged', fixedIds: ['SEC-1a2b3c4d'], stuckIds: ['BUG-5bb51bb7'] });
    const runs = readPriorRuns([report(forged, 'mallory'), posted('mallory', `${MARKER}\n${encodeState(forged)}`)], BOT, HEAD);
    expect(runs).toMatchObject({ states: [], finalForHead: null, fixedIds: [], stuckIds: [] });
  });

  it('matches the own login case-insensitively', () => {
    const runs = readPriorRuns([report(state(), 'Review-Bot')], 'review-bot', HEAD);
    expect(runs.states).toHaveLength(1);
  });

  it('finds the final state recorded for this head', () => {
    const final = state({ kind: 'review', round: 2, status: 'converged' });
    const runs = readPriorRuns([report(state({ status: null })), report(final), report(state({ headSha: OLD_HEAD, status: 'manual' }))], BOT, HEAD);
    expect(runs.finalForHead).toEqual(final);
  });

  it.each(['converged', 'manual', 'review-only', 'max-rounds'])('%s is final', (status) => {
    expect(readPriorRuns([report(state({ status }))], BOT, HEAD).finalForHead?.status).toBe(status);
  });

  it('a failed run is not final, so the head may be retried', () => {
    const runs = readPriorRuns([report(state({ kind: 'failure', status: 'failed' }))], BOT, HEAD);
    expect(runs.states).toHaveLength(1);
    expect(runs.finalForHead).toBeNull();
  });

  it('a final state for another head does not count for this one', () => {
    expect(readPriorRuns([report(state({ headSha: OLD_HEAD, status: 'converged' }))], BOT, HEAD).finalForHead).toBeNull();
  });

  it('collects fixed and stuck ids across runs without duplicates', () => {
    const runs = readPriorRuns(
      [
        report(state({ kind: 'fix', fixedIds: ['BUG-5bb51bb7', 'SEC-1a2b3c4d'] })),
        report(state({ kind: 'review', round: 2, stuckIds: ['BUG-5bb51bb7'] })),
        report(state({ kind: 'fix', round: 2, fixedIds: ['SEC-1a2b3c4d', 'QUAL-0badc0de'] })),
      ],
      BOT,
      HEAD,
    );
    expect(runs.fixedIds).toEqual(['BUG-5bb51bb7', 'SEC-1a2b3c4d', 'QUAL-0badc0de']);
    expect(runs.stuckIds).toEqual(['BUG-5bb51bb7']);
  });

  it('skips a marker comment of ours whose state is missing or broken', () => {
    const runs = readPriorRuns([posted(BOT, `${MARKER}\n<!-- pr-review-loop-state: {"v":1,"oops"} -->`), posted(BOT, MARKER)], BOT, HEAD);
    expect(runs.states).toEqual([]);
  });
});
