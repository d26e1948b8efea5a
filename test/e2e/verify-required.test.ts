// A tool that pushes says what a fix must pass first: `mode: fix` without `verify` refuses to
// start, naming the input and showing one that works, before anything is posted or any agent runs;
// `verify: none` is the explicit choice to push unchecked, and the fix report says so.
import { afterEach, expect, it } from 'vitest';
import { createWorld, type World } from './harness.js';
import { PLANTED_BUG_RULES } from './scenarios.js';

let world: World;
afterEach(async () => {
  await world.close();
});

it('mode: fix without verify refuses before anything is posted, naming the input with an example', async () => {
  world = await createWorld();
  const r = await world.run({ rules: PLANTED_BUG_RULES, inputs: { verify: '' } });
  expect(r.code).toBe(1);
  expect(r.outputs.status).toBe('failed');
  const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error::'));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain('Input "verify" is required with mode: fix (the default)');
  expect(errors[0]).toContain('Set verify: none to push fixes without any check, or mode: review');
  expect(errors[0]).toContain('Example: verify: |%0A    npm ci%0A    npm test');
  expect(world.agentCalls()).toEqual([]);
  expect(world.github.writes()).toEqual([]);
  expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
});

it('mode: review needs no verify', async () => {
  world = await createWorld();
  const r = await world.run({ rules: PLANTED_BUG_RULES, inputs: { verify: '', mode: 'review' } });
  expect(r.code, r.stdout).toBe(0);
  expect(r.outputs.status).toBe('review-only');
});

it('verify: none pushes the fix unchecked, and the fix report says so', async () => {
  world = await createWorld();
  const r = await world.run({ rules: PLANTED_BUG_RULES, inputs: { verify: 'none', 'max-rounds': '1' } });
  expect(r.outputs.status, r.stdout).toBe('max-rounds');
  expect((await world.headLog())[0]!.body).toContain('Review-Loop-Round: 1');
  const fix = world.github.comments(7).find((c) => c.body.includes('## 🛠️ Fix round 1'))!.body;
  expect(fix).toContain('### Verification');
  expect(fix).toContain('Not verified: the workflow sets `verify: none`, so no command has to pass');
  // `none` is no command: nothing named none was run.
  expect(r.stdout).not.toMatch(/^verify: none$/m);
});
