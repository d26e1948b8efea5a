// Confirmation the action proves itself, end to end with the real bundle and scripted
// agents: the confirmer names the command of its test; the action runs it on the PR head with only
// the test added (it must fail) and after the fix (it must pass), and shows the evidence.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWorld, type ScenarioRule, type World } from './harness.js';
import { BUG_FINDING, FIXED_MATH, reviewerAnswer } from './scenarios.js';

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.close();
});

const TEST =
  "const assert = require('node:assert');\nconst { add } = require('../src/math.js');\n" +
  "assert.strictEqual(add(1, 1), 2, 'add(1, 1) should be 2');\n";
/** Passes with the bug too: a - b is 2 for (2, 0). */
const WEAK_TEST =
  "const assert = require('node:assert');\nconst { add } = require('../src/math.js');\nassert.strictEqual(add(2, 0), 2);\n";
const confirmed = (over: Record<string, unknown> = {}) => ({
  findingId: 'x',
  confirmed: true,
  testFile: 'test/add.test.js',
  testName: 'add adds',
  testCommand: 'node test/add.test.js',
  explanation: 'add(1, 1) is 0',
  ...over,
});
const reviewers = [
  { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG_FINDING]) },
  { role: 'reviewer', answer: reviewerAnswer([]) },
];
const WRITES_TEST = { 'test/add.test.js': TEST };
const FIX: ScenarioRule = { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH } };

/** A run with confirm: P1 where the confirmer writes `files` and answers `answer`. */
const confirmRun = (files: Record<string, string>, answer = confirmed(), fixer: ScenarioRule = FIX, inputs = {}) =>
  world.run({
    inputs: { confirm: 'P1', ...inputs },
    rules: [...reviewers, { role: 'confirm', edits: files, answer }, fixer],
  });

it('confirms a finding whose test fails on the PR head and passes after the fix, with the evidence', async () => {
  const r = await confirmRun(WRITES_TEST);
  expect(r.outputs.status, r.stdout).toBe('converged');
  expect(r.outputs.fixed).toBe('1');
  const fix = (await world.headLog())[0]!;
  const files = await world.sandbox.originGit(['show', '--name-only', '--format=', fix.sha]);
  expect(files.stdout.split('\n').filter(Boolean).sort()).toEqual(['src/math.js', 'test/add.test.js']);
  const report = world.github.comments(7)[1]!.body;
  expect(report).toContain('Confirmed by a failing test (1)');
  expect(report).toContain('regression test `test/add.test.js` · test add adds');
  expect(report).toContain('`node test/add.test.js` failed on the PR head with only the test added; passes after');
  expect(report).toContain(fix.sha.slice(0, 7));
  // The failing output, as the action saw it.
  expect(report).toContain('add(1, 1) should be 2');
  // And in the finding's thread.
  const thread = world.github.state.threads(7)[0]!;
  expect(thread.comments[1]!.body).toContain(
    'Proven by a test the action ran: `node test/add.test.js` failed before this fix',
  );
});

it('does not fix a finding whose test passes on the unfixed head: not reproduced', async () => {
  const r = await confirmRun({ 'test/add.test.js': WEAK_TEST });
  expect(r.outputs.status, r.stdout).toBe('manual');
  expect(world.agentCalls().filter((c) => c.role === 'fixer')).toHaveLength(0);
  expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
  const report = world.github.comments(7)[1]!.body;
  expect(report).toContain('Not confirmed (not fixed)');
  expect(report).toContain("passes on the PR head, so the reviewer's claim could not be reproduced");
});

it('voids a confirmation that changed a file other than a test', async () => {
  const alsoCode = {
    'src/math.js': '// helper\nfunction add(a, b) {\n  return a - b;\n}\nmodule.exports = { add };\n',
  };
  const r = await confirmRun({ ...WRITES_TEST, ...alsoCode });
  expect(r.outputs.status, r.stdout).toBe('manual');
  expect(world.agentCalls().filter((c) => c.role === 'fixer')).toHaveLength(0);
  expect(world.github.comments(7)[1]!.body).toContain(
    'the confirmation is void: the confirm agent changed src/math.js, which is not a test file',
  );
});

it('does not take a confirmation without a command that runs the test', async () => {
  const r = await confirmRun(WRITES_TEST, confirmed({ testCommand: null }));
  expect(r.outputs.status, r.stdout).toBe('manual');
  expect(world.github.comments(7)[1]!.body).toContain('gave no command that runs it (testCommand)');
});

it('sends the fixer back while the confirmed test still fails, then pushes nothing', async () => {
  // Not a fix: add(1, 1) is still not 2.
  const notAFix = { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH.replace('a + b', 'a * b') } };
  const r = await confirmRun(WRITES_TEST, confirmed(), notAFix, { 'gate-max-loops': '2' });
  expect(r.outputs.status, r.stdout).toBe('failed');
  const fixers = world.agentCalls().filter((c) => c.role === 'fixer');
  expect(fixers).toHaveLength(2);
  // The second call was told why, with the test's output fenced as data.
  expect(fixers[1]!.prompt).toContain('A confirmed test does not pass after your change');
  expect(fixers[1]!.prompt).toContain('add(1, 1) should be 2');
  expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
  const report = world.github.comments(7)[1]!.body;
  expect(report).toContain('does not pass after the fix. Nothing was pushed.');
  expect(report).toContain('it still fails after the fix');
});

it('rejects a fix that makes the confirmed test pass by changing it', async () => {
  const rewritesTest = { role: 'fixer', fixAll: true, edits: { 'test/add.test.js': "console.log('fine');\n" } };
  const r = await confirmRun(WRITES_TEST, confirmed(), rewritesTest, { 'gate-max-loops': '1' });
  expect(r.outputs.status, r.stdout).toBe('failed');
  expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
  expect(world.github.comments(7)[1]!.body).toContain('the fix changed its test file test/add.test.js');
});

it("commits only the confirmer's test: what running it wrote is put back; a command that cannot run confirms nothing", async () => {
  // The command writes a file outside the tests before the test fails.
  const r = await confirmRun(WRITES_TEST, confirmed({ testCommand: 'echo x > src/extra.js; node test/add.test.js' }));
  expect(r.outputs.status, r.stdout).toBe('converged');
  const fix = (await world.headLog())[0]!;
  const files = await world.sandbox.originGit(['show', '--name-only', '--format=', fix.sha]);
  expect(files.stdout.split('\n').filter(Boolean).sort()).toEqual(['src/math.js', 'test/add.test.js']);

  await world.close();
  world = await createWorld();
  const missing = await confirmRun(WRITES_TEST, confirmed({ testCommand: 'no-such-test-runner test/add.test.js' }));
  expect(missing.outputs.status, missing.stdout).toBe('manual');
  expect(world.github.comments(7)[1]!.body).toContain('could not run (exit 127): nothing was reproduced');
});
