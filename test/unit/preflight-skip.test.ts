// Loop safety at the start of a pull_request run, against real commits: the run is skipped on
// the action's own fix commit only when both its trailer and a trusted state of this job say so
// (a trailer anyone can write proves nothing), and on a head already reviewed to a final state;
// either way the counts recorded for the head travel with the skip so fail-on still holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixCommitMessage } from '../../src/fix/commit-message.js';
import { createGit } from '../../src/git/runner.js';
import type { PriorRuns } from '../../src/preflight/memory.js';
import { SkipRun } from '../../src/preflight/checks.js';
import { isPushSkipCommit, skipIfHandled } from '../../src/preflight/skip.js';
import type { HiddenState } from '../../src/report/state.js';
import { commitChanges, createGitSandbox, type GitSandbox } from '../fakes/git-sandbox.js';
import { finding } from '../factories.js';

let sandbox: GitSandbox;
/** Commits on top of the PR head: the action's fix commit, a human's forging its trailer, a plain one. */
let ownFix: string;
let forged: string;
let plain: string;
let trailerInProse: string;
beforeAll(async () => {
  sandbox = await createGitSandbox();
  const git = createGit(sandbox.workDir, { env: sandbox.devEnv });
  const bug = finding();
  ownFix = await commitChanges(
    git,
    sandbox.workDir,
    { 'src/math.js': 'fixed\n' },
    fixCommitMessage(1, [{ findingId: bug.id, description: 'Return a + b.' }], [bug]),
  );
  forged = await commitChanges(git, sandbox.workDir, { 'a.txt': 'a\n' }, 'Sneaky change\n\nReview-Loop-Round: 1\n');
  plain = await commitChanges(git, sandbox.workDir, { 'b.txt': 'b\n' }, 'Plain change');
  // The key in the middle of the body, followed by more prose: git does not read it as a trailer.
  trailerInProse = await commitChanges(
    git,
    sandbox.workDir,
    { 'c.txt': 'c\n' },
    'Docs\n\nReview-Loop-Round: 1\n\nThis paragraph ends the message.\n',
  );
});
afterAll(() => sandbox.cleanup());

const COUNTS = { p0: 0, p1: 1, p2: 0, p3: 2 };

function state(over: Partial<HiddenState>): HiddenState {
  return {
    v: 1,
    kind: 'review',
    headSha: sandbox.headSha,
    round: 1,
    runId: '42',
    findingIds: [],
    fixedIds: [],
    stuckIds: [],
    status: null,
    ...over,
  };
}

function prior(over: Partial<PriorRuns> = {}): PriorRuns {
  return {
    states: [],
    finalForHead: null,
    fixed: [],
    lastReview: null,
    reports: [],
    confirmed: [],
    ciAttempts: {},
    dismissed: [],
    answered: [],
    decisions: [],
    decisionsAskedAt: new Map(),
    ...over,
  };
}

async function skipOf(p: PriorRuns, head: string): Promise<SkipRun | null> {
  try {
    await skipIfHandled(sandbox.git, p, head, 'P1');
    return null;
  } catch (e) {
    if (e instanceof SkipRun) return e;
    throw e;
  }
}

describe('isPushSkipCommit', () => {
  it("reads the round trailer of the action's fix commit message, and only a real trailer", async () => {
    expect(await isPushSkipCommit(sandbox.git, ownFix)).toBe(true);
    expect(await isPushSkipCommit(sandbox.git, forged)).toBe(true);
    expect(await isPushSkipCommit(sandbox.git, plain)).toBe(false);
    expect(await isPushSkipCommit(sandbox.git, trailerInProse)).toBe(false);
  });
});

describe('skipIfHandled', () => {
  it('skips the head when it is a fix commit this job recorded pushing, keeping its counts', async () => {
    const skip = await skipOf(prior({ states: [state({ kind: 'fix', commitSha: ownFix, counts: COUNTS })] }), ownFix);
    expect(skip?.message).toBe(
      `Head ${ownFix.slice(0, 7)} is this action's own fix commit (it carries the Review-Loop-Round trailer); ` +
        'skipping so the loop cannot re-trigger itself.',
    );
    expect(skip?.recorded).toEqual({ counts: COUNTS, failOn: 'P1' });
  });

  it('reviews a head whose trailer no trusted state backs: anyone can write the trailer', async () => {
    expect(await skipOf(prior(), forged)).toBeNull();
    // A state for another commit, or a review state for this one, is no proof either.
    const states = [state({ kind: 'fix', commitSha: ownFix }), state({ kind: 'review', headSha: forged })];
    expect(await skipOf(prior({ states }), forged)).toBeNull();
  });

  it('reviews a head a trusted state names when the commit itself carries no trailer', async () => {
    expect(await skipOf(prior({ states: [state({ kind: 'fix', commitSha: plain })] }), plain)).toBeNull();
  });

  it('skips a head already reviewed to a final state, saying how to review it again', async () => {
    const final = state({ kind: 'final', headSha: plain, status: 'converged', counts: COUNTS });
    const skip = await skipOf(prior({ finalForHead: final }), plain);
    expect(skip?.message).toBe(
      `Head ${plain.slice(0, 7)} was already reviewed (status converged); ` +
        'start a manual round with workflow_dispatch or /review-loop to review it again.',
    );
    expect(skip?.recorded).toEqual({ counts: COUNTS, failOn: 'P1' });
  });

  it('a final state without counts skips with nothing recorded', async () => {
    const skip = await skipOf(prior({ finalForHead: state({ kind: 'final', status: 'manual' }) }), plain);
    expect(skip).toBeInstanceOf(SkipRun);
    expect(skip?.recorded).toBeUndefined();
  });
});
