// Who may start a run with `/review-loop` (docs/security.md), and `fail-on` gating (docs/how-a-run-goes.md).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorld, type RunOptions, type World } from './harness.js';
import { BUG_FINDING, reviewerAnswer } from './scenarios.js';

let world: World;

beforeEach(async () => {
  // helper[bot] is an app: not a collaborator, so GitHub reports no permission for it.
  world = await createWorld({ github: { collaborators: { reader: 'read', alice: 'write' } } });
});
afterEach(async () => {
  await world.close();
});

const RULES = [{ role: 'reviewer', answer: reviewerAnswer([BUG_FINDING]) }];
const byComment = (login: string, extra: Partial<RunOptions> = {}): RunOptions => ({
  rules: RULES,
  eventName: 'issue_comment',
  checkout: 'base',
  comment: { body: '/review-loop please', login, type: login.endsWith('[bot]') ? 'Bot' : 'User' },
  ...extra,
  inputs: { mode: 'review', ...extra.inputs },
});

describe('/review-loop on a PR comment', () => {
  it('is refused for a read-only user and for a bot not in allowed-bots: says why, posts nothing, runs no agent', async () => {
    const reader = await world.run(byComment('reader'));
    expect(reader.code, reader.stdout).toBe(0);
    expect(reader.outputs.status).toBe('skipped');
    expect(reader.stdout).toMatch(/::warning::Refused: reader has "read" permission/);
    expect(reader.summary).toMatch(/Refused: reader has "read" permission; \/review-loop needs write/);

    const bot = await world.run(byComment('helper[bot]', { inputs: { 'allowed-bots': 'other-bot[bot]' } }));
    expect(bot.code).toBe(0);
    expect(bot.outputs.status).toBe('skipped');
    expect(bot.stdout).toMatch(/::warning::Refused: helper\[bot\] is a bot/);
    expect(bot.summary).toContain('allowed-bots');

    expect(world.github.writes()).toEqual([]);
    expect(world.agentCalls()).toEqual([]);
  });

  it('runs for a writer, and for a bot listed in allowed-bots, even on an already reviewed head', async () => {
    const alice = await world.run(byComment('alice'));
    expect(alice.outputs.status, alice.stdout).toBe('review-only');
    expect(world.github.comments(7)).toHaveLength(1);

    const bot = await world.run(byComment('helper[bot]', { inputs: { 'allowed-bots': 'helper[bot]' } }));
    expect(bot.outputs.status, bot.stdout).toBe('review-only');
    expect(world.github.comments(7)).toHaveLength(2);
    expect(world.agentCalls().map((c) => c.role)).toEqual(['reviewer', 'reviewer']);
  });

  it('ignores a PR comment that is not a /review-loop command', async () => {
    const r = await world.run(
      byComment('alice', { comment: { body: 'Nice work! /review-loop later maybe', login: 'alice' } }),
    );
    expect(r.outputs.status).toBe('skipped');
    expect(r.code).toBe(0);
    expect(world.github.requests).toEqual([]);
  });
});

describe('fail-on', () => {
  it('fails the step when a finding at or above the threshold remains', async () => {
    const r = await world.run({ rules: RULES, inputs: { mode: 'review', 'fail-on': 'P1' } });
    expect(r.outputs.status).toBe('review-only');
    expect(r.outputs.p1).toBe('1');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/::error::fail-on P1/);
    // The report was still posted: failing the step is about the verdict, not the run.
    expect(world.github.comments(7)).toHaveLength(1);

    // Re-running the failed job (or reopening the PR) skips the reviewed head, but the gate
    // stays red: the skipped run enforces fail-on with the counts the earlier run recorded.
    const again = await world.run({ rules: RULES, inputs: { mode: 'review', 'fail-on': 'P1' } });
    expect(again.outputs.status).toBe('skipped');
    expect(again.outputs.p1).toBe('1');
    expect(again.code).toBe(1);
    expect(world.github.comments(7)).toHaveLength(1);
  });
});
