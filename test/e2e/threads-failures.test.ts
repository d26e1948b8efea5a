// Human review threads and the failure policy end to end: threads never go
// to the fixer, a failed analyzer stops the loop, and every failure is explained once.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeState } from '../../src/report/state.js';
import { createWorld, type World } from './harness.js';
import { analyzerAnswer, BUG_FINDING, HUMAN_THREAD, PLANTED_BUG_RULES, reviewerAnswer } from './scenarios.js';

const MARKER = '<!-- pr-review-loop-marker -->';
const THREAD_ID = `THREAD-${HUMAN_THREAD.comments[0]!.databaseId}`;
let world: World;

afterEach(async () => {
  await world.close();
});

const withThread = () => createWorld({ pull: { reviewThreads: [HUMAN_THREAD] } });
const roles = () =>
  world
    .agentCalls()
    .map((c) => c.role)
    .sort();
const ANALYZER_OK = {
  role: 'analyzer',
  answer: analyzerAnswer([{ databaseId: HUMAN_THREAD.comments[0]!.databaseId, title: 'Explain why add() subtracts' }]),
};

describe('human review threads', () => {
  it('fixes the code findings but never hands a thread to the fixer, then ends manual', async () => {
    world = await withThread();
    const rules = [ANALYZER_OK, ...PLANTED_BUG_RULES];
    const r = await world.run({ rules, inputs: { verify: 'npm test' } });
    expect(r.outputs.status, r.stdout).toBe('manual');
    expect(r.code).toBe(0);
    expect(r.outputs.rounds).toBe('1');
    const [payload, ...more] = world.fixPayloads();
    expect(more).toEqual([]);
    // Titles reach the fixer fenced as untrusted data (docs/decisions/0003-untrusted-text-is-data.md).
    expect(payload!.issuesToFix.map((f) => f.title.includes(`\n${BUG_FINDING.title}\n`))).toEqual([true]);
    expect(JSON.stringify(payload)).not.toContain('THREAD-');
    expect((await world.headLog())[0]!.body).toContain('Review-Loop-Round: 1');

    const [review, fix] = world.github.comments(7);
    expect(review!.body).toContain(THREAD_ID);
    expect(review!.body).toContain('Explain why add() subtracts');
    expect(fix!.body).toContain('Run status: `manual`');
  });

  it('with only a thread, ends manual after the review report without calling the fixer', async () => {
    world = await withThread();
    const r = await world.run({ rules: [ANALYZER_OK, { role: 'reviewer', answer: reviewerAnswer([]) }] });
    expect(r.outputs.status, r.stdout).toBe('manual');
    expect(r.code).toBe(0);
    expect(roles()).toEqual(['analyzer', 'reviewer']);
    const comments = world.github.comments(7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain(THREAD_ID);
    expect(comments[0]!.body).toContain('Run status: `manual`');
    expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
  });

  it('stops with a failure report and no fix when the analyzer fails', async () => {
    world = await withThread();
    const rules = [{ role: 'analyzer', answer: 'Sorry, I cannot produce JSON today.' }, ...PLANTED_BUG_RULES];
    const r = await world.run({ rules, inputs: { verify: 'npm test' } });
    expect(r.outputs.status, r.stdout).toBe('failed');
    expect(r.code).toBe(1);
    expect(roles()).toEqual(['analyzer', 'reviewer']);
    expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
    const comments = world.github.comments(7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(/analyzer failed/);
    expect(comments[0]!.body).toContain('Run status: `failed`');
    expect(decodeState(comments[0]!.body)?.status).toBe('failed');
  });
});

describe('failed reviews', () => {
  it('stops with a failure report and no fix when no reviewer succeeds', async () => {
    world = await createWorld();
    const rules = [
      { role: 'reviewer', answer: 'no JSON here' },
      { role: 'fixer', fixAll: true },
    ];
    const r = await world.run({ rules, inputs: { reviewers: 'command:model-a\ncommand:model-b' } });
    expect(r.outputs.status, r.stdout).toBe('failed');
    expect(r.code).toBe(1);
    expect(roles()).toEqual(['reviewer', 'reviewer']);
    const comments = world.github.comments(7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(/no reviewer succeeded/);
    expect(comments[0]!.body).toContain('Run status: `failed`');
  });
});

describe('failure policy', () => {
  it('after a comment was posted, explains a later failure in one final marker comment', async () => {
    world = await createWorld();
    const rules = [
      { role: 'fixer', fixAll: true, edits: PLANTED_BUG_RULES[2]!.edits!, sleepMs: 300 },
      ...PLANTED_BUG_RULES,
    ];
    const running = world.run({ rules });
    // While the fixer works, make the second review's PR fetch fail for good (the threads and
    // reviews, one GraphQL query: the file list and the diff come from the checkout now).
    await world.waitForAgentCall((c) => c.role === 'fixer');
    const body = { message: 'Server Error' };
    world.github.failNext({ method: 'POST', path: /\/graphql$/, status: 502, times: 20, body });
    const r = await running;
    expect(r.outputs.status).toBe('failed');
    expect(r.code).toBe(1);
    const comments = world.github.comments(7);
    expect(comments).toHaveLength(3); // review 1, fix 1, the failure
    const last = comments.at(-1)!.body;
    expect(last).toContain('stopped with a failure');
    expect(last).toContain('Server Error');
    expect(last).toContain(MARKER);
    expect(decodeState(last)).toMatchObject({ kind: 'failure', status: 'failed' });
    expect(r.summary).toContain('Server Error');
  });

  it('explains in the fix report when the PR never shows the pushed fix', async () => {
    world = await createWorld();
    const stale = await fetch(`${world.github.url}/repos/octo-org/demo-repo/pulls/7`).then((res) => res.json());
    const rules = [
      { role: 'fixer', fixAll: true, edits: PLANTED_BUG_RULES[2]!.edits!, sleepMs: 300 },
      ...PLANTED_BUG_RULES,
    ];
    const running = world.run({ rules });
    // From the fixer on, GitHub keeps answering with the PR as it was before the push.
    await world.waitForAgentCall((c) => c.role === 'fixer');
    world.github.failNext({ method: 'GET', path: /\/pulls\/7$/, status: 200, body: stale, times: 100 });
    const r = await running;
    expect(r.outputs.status).toBe('failed');
    expect(r.code).toBe(1);
    expect((await world.headLog())[0]!.body).toContain('Review-Loop-Round: 1');
    const comments = world.github.comments(7);
    expect(comments).toHaveLength(2);
    expect(comments[1]!.body).toContain('Run status: `failed`');
    expect(comments[1]!.body).toMatch(/PR head never showed [0-9a-f]{40}/);
  });

  it('before any comment, fails in the log and the job summary only', async () => {
    world = await createWorld();
    const r = await world.run({
      rules: PLANTED_BUG_RULES,
      prepare: (checkout) => writeFile(path.join(checkout.dir, 'src/math.js'), '// local edit\n'),
    });
    expect(r.outputs.status).toBe('failed');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/::error::The checkout has uncommitted changes \(.*src\/math\.js/);
    expect(r.summary).toMatch(/uncommitted changes/);
    expect(world.github.writes()).toEqual([]);
    expect(world.agentCalls()).toEqual([]);
  });
});
