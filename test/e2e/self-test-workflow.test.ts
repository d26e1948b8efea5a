// The self-test workflow (.github/workflows/self-test.yml) as the runner would run it, on both
// privilege paths: its `uses: ./` step's inputs, read from the workflow file, given to the bundle on
// a pull_request event, with its reviewer (.github/self-test/reviewer.mjs). The run must end with
// the status the workflow's last step expects, having posted and pushed nothing: what the workflow
// checks on GitHub's runners, checked here before it gets there.
import { copyFileSync, chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import YAML from 'yaml';
import { createWorld, ROOT, type World } from './harness.js';
import { PRIVILEGE_PATHS } from './runner-user.js';

interface Step {
  id?: string;
  uses?: string;
  with?: Record<string, string | boolean>;
  env?: Record<string, string>;
}
const workflow = YAML.parse(readFileSync(path.join(ROOT, '.github/workflows/self-test.yml'), 'utf8'));
const steps: Step[] = workflow.jobs['self-test'].steps;
const action = steps.find((s) => s.uses === './')!;
const expected = steps.at(-1)!.env!.EXPECTED;
const REVIEWER = '.github/self-test/reviewer.mjs';

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.close();
});

it.each(PRIVILEGE_PATHS)(
  'the self-test workflow’s run ends $how as its last step expects',
  async ({ asRunnerUser }) => {
    expect(action.with!['agent-command']).toBe(`node ${REVIEWER}`);
    // On GitHub the checkout is this repository; here it is the fake PR's, so the reviewer is run
    // from a copy the sandbox user can read.
    const reviewer = path.join(world.dir, 'agent-io', 'reviewer.mjs');
    copyFileSync(path.join(ROOT, REVIEWER), reviewer);
    chmodSync(reviewer, 0o644);
    const inputs = Object.fromEntries(Object.entries(action.with!).map(([k, v]) => [k, String(v)]));
    const r = await world.run({
      asRunnerUser,
      eventName: 'pull_request',
      inputs: { ...inputs, 'agent-command': `node ${reviewer}` },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(expected).toBe('converged');
    expect(r.outputs.status).toBe(expected);
    // The reviewer answered: one reviewer, the model the workflow names, no findings.
    expect(r.summary).toContain(inputs.reviewers!);
    expect(r.outputs.p0).toBe('0');
    expect(r.outputs.consensus).toBe('approve');
    // dry-run: nothing posted, nothing pushed.
    expect(world.github.comments(7)).toEqual([]);
    expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
  },
);
