// Loop semantics end to end (issue 4): stuck findings, memory across runs, loop safety,
// max-rounds, dispatches and the failure policy, against the fake GitHub and a bare origin.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeState } from '../../src/report/state.js';
import { createWorld, type World } from './harness.js';
import { BUG_FINDING, STUCK_RULES } from './scenarios.js';

const MARKER = '<!-- pr-review-loop-marker -->';
const STUCK_SECTION = '### 🔁 Stuck findings';
let world: World;

beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.close();
});

describe('stuck findings', () => {
  it('ends manual with a stuck section when a "fixed" finding keeps coming back, and never hands it to the fixer again', async () => {
    const r = await world.run({ rules: STUCK_RULES });
    expect(r.outputs.status, r.stdout).toBe('manual');
    expect(r.code).toBe(0);
    expect(r.outputs.rounds).toBe('2');
    expect(r.outputs.stuck).toBe('1');

    const payloads = world.fixPayloads();
    expect(payloads).toHaveLength(1);
    expect(payloads[0]!.issuesToFix.map((f) => f.title)).toEqual([BUG_FINDING.title]);

    const comments = world.github.comments(7);
    expect(comments).toHaveLength(3); // review 1, fix 1, review 2 (the last word)
    const last = comments.at(-1)!.body;
    expect(last).toContain(STUCK_SECTION);
    expect(last.split(STUCK_SECTION)[1]).toContain(BUG_FINDING.title);
    expect(last).toContain('Run status: `manual`');
    const state = decodeState(last)!;
    expect(state.status).toBe('manual');
    expect(state.stuckIds).toHaveLength(1);
    expect(r.summary).toContain(STUCK_SECTION);
  });
});
