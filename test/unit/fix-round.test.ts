// One fix attempt end to end in-process: the e2e suite's scripted agent as fixer (and gate)
// through the real `command` adapter, verify commands as real processes, and a push to a real
// bare origin. What a user cares about: what reached the PR branch, the commit that got there,
// and the outcome and message the fix report shows. Nothing may be pushed unless every step passed.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createBudget } from '../../src/budget/budget.js';
import { runFixRound } from '../../src/fix/fix-round.js';
import { finding } from '../factories.js';
import { createFixWorld, type FixWorld } from './fix-world.js';

const FIXED_MATH = 'function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n';
const WRONG_FIX = 'function add(a, b) {\n  return a * b;\n}\n\nmodule.exports = { add };\n';
const BUG = finding({ id: 'BUG-5bb51bb7', title: 'add() subtracts instead of adding' });
const VERIFY = 'node test.js';

let w: FixWorld;
beforeAll(async () => {
  w = await createFixWorld();
});
afterAll(() => w.close());
beforeEach(() => w.reset());

const fixer = (over: Record<string, unknown> = {}) => ({
  role: 'fixer',
  fixAll: true,
  edits: { 'src/math.js': FIXED_MATH },
  ...over,
});
const show = (rev: string, file: string) => w.sandbox.originGit(['show', `${rev}:${file}`]).then((r) => r.stdout);

it('pushes one verified commit on the PR head, with the fixed findings and the round trailer', async () => {
  await w.script([fixer()]);
  const rec = await runFixRound(w.env({ verify: [VERIFY] }), w.ctx(), 1, [BUG]);
  expect(rec.outcome, rec.message).toBe('pushed');
  expect(rec.message).toBe(`Pushed ${rec.commitSha!.slice(0, 7)} to ${w.sandbox.headRef}.`);
  expect(await w.originHead()).toBe(rec.commitSha);
  expect(await show(rec.commitSha!, 'src/math.js')).toBe(FIXED_MATH);
  const parent = (await w.sandbox.originGit(['rev-parse', `${rec.commitSha}^`])).stdout.trim();
  expect(parent).toBe(w.sandbox.headSha);
  const message = (await w.sandbox.originGit(['log', '-1', '--format=%B', rec.commitSha!])).stdout;
  expect(message).toContain(`- ${BUG.id}: ${BUG.title}`);
  expect(message.trimEnd().split('\n').at(-1)).toBe('Review-Loop-Round: 1');
  expect(rec.fixed).toEqual([{ findingId: BUG.id, description: `fixed ${BUG.id}` }]);
  expect(rec.verify.map((v) => [v.command, v.exitCode, v.outputTail])).toEqual([[VERIFY, 0, 'ok']]);
  expect(rec.fixer).toMatchObject({ name: 'fixer', role: 'fixer', agent: 'command', status: 'ok' });
});

it('a failing verify command pushes nothing and names the command and its exit code', async () => {
  await w.script([fixer({ edits: { 'src/math.js': WRONG_FIX } })]);
  const rec = await runFixRound(w.env({ verify: [VERIFY] }), w.ctx(), 1, [BUG]);
  expect(rec.outcome).toBe('verify-failed');
  expect(rec.message).toBe(`Verification failed: \`${VERIFY}\` exited with 1. Nothing was pushed.`);
  expect(rec.verify[0]!.outputTail).toContain('add(2, 3) should be 5');
  expect(await w.originHead()).toBe(w.sandbox.headSha);
});

it('a fixer that changed nothing: no commit, nothing pushed', async () => {
  await w.script([fixer({ edits: {} })]);
  const rec = await runFixRound(w.env(), w.ctx(), 1, [BUG]);
  expect(rec).toMatchObject({ outcome: 'no-changes', commitSha: null });
  expect(rec.message).toBe('The fixer changed nothing, so there is nothing to push.');
  expect(await w.originHead()).toBe(w.sandbox.headSha);
});

it('a fixer that fails or leaves a finding unaccounted for pushes nothing', async () => {
  await w.script([{ role: 'fixer', exitCode: 2, stderr: 'model overloaded', edits: { 'src/math.js': FIXED_MATH } }]);
  const failed = await runFixRound(w.env(), w.ctx(), 1, [BUG]);
  expect(failed.outcome).toBe('fixer-failed');
  expect(failed.message).toMatch(/^The fixer failed: .*model overloaded/s);
  await w.reset();
  await w.script([
    {
      role: 'fixer',
      edits: { 'src/math.js': FIXED_MATH },
      answer: { fixedIssues: [], rejectedIssues: [], commits: [] },
    },
  ]);
  const silent = await runFixRound(w.env(), w.ctx(), 1, [BUG]);
  expect(silent.outcome).toBe('fixer-failed');
  expect(silent.message).toContain("The fixer's answer is incomplete:");
  expect(silent.message).toContain(BUG.id);
  expect(await w.originHead()).toBe(w.sandbox.headSha);
});

it('refuses a fix that touches a workflow file, naming the path', async () => {
  await w.script([fixer({ edits: { 'src/math.js': FIXED_MATH, '.github/workflows/ci.yml': 'on: push\n' } })]);
  const rec = await runFixRound(w.env(), w.ctx(), 1, [BUG]);
  expect(rec.outcome).toBe('refused');
  expect(rec.message).toBe(
    'The fix touches paths the action never pushes: .github/workflows/ci.yml. Nothing was pushed.',
  );
  expect(await w.originHead()).toBe(w.sandbox.headSha);
});

it('refuses to push when a verify command moved HEAD after the fix commit', async () => {
  await w.script([fixer()]);
  const sneaky = 'git commit --quiet --allow-empty -m "sneaky"';
  const rec = await runFixRound(w.env({ verify: [sneaky] }), w.ctx(), 1, [BUG]);
  expect(rec.outcome).toBe('refused');
  expect(rec.message).toMatch(/^HEAD moved after the fix commit [0-9a-f]{7} was made/);
  expect(await w.originHead()).toBe(w.sandbox.headSha);
});

it('a dry run commits and verifies locally but pushes nothing', async () => {
  await w.script([fixer()]);
  const rec = await runFixRound(w.env({ dryRun: true, verify: [VERIFY] }), w.ctx(), 1, [BUG]);
  expect(rec.outcome).toBe('dry-run');
  expect((await w.git(['rev-parse', 'HEAD'])).stdout.trim()).toBe(rec.commitSha);
  expect(await w.originHead()).toBe(w.sandbox.headSha);
});

it('a branch someone pushed to meanwhile is not overwritten: their commit stays', async () => {
  await w.script([fixer()]);
  let human = '';
  const env = w.env({
    beforePush: async () => {
      human = await w.sandbox.pushFromAnotherClone({ 'README.md': 'human edit\n' });
      return false;
    },
  });
  const rec = await runFixRound(env, w.ctx(), 1, [BUG]);
  expect(rec.outcome).toBe('push-rejected');
  expect(rec.message).toBe(
    'The push was rejected: someone pushed to the branch meanwhile; the fix was not pushed and nothing was lost.',
  );
  expect(await w.originHead()).toBe(human);
});

it("the gate's requested changes go back to the fixer, fenced; the approved fix is pushed", async () => {
  await w.script([
    fixer(),
    { role: 'gate', once: true, answer: { decision: 'request_changes', requestedChanges: ['Add a test for add().'] } },
    { role: 'gate', answer: { decision: 'approve', summary: 'Good.' } },
  ]);
  const gate = { agent: 'command' as const, model: 'scripted-gate' };
  const rec = await runFixRound(w.env({ gate, gateMaxLoops: 2 }), w.ctx(), 1, [BUG]);
  expect(rec.outcome, rec.message).toBe('pushed');
  expect(w.calls().map((c) => c.role)).toEqual(['fixer', 'gate', 'fixer', 'gate']);
  const second = w.calls()[2]!.prompt;
  expect(second).toContain('The gate reviewer asked for more changes');
  expect(second).toContain('- Add a test for add().');
  expect(await w.originHead()).toBe(rec.commitSha);
});

it('a gate that never approves within gate-max-loops blocks the push', async () => {
  const never = { role: 'gate', answer: { decision: 'request_changes', requestedChanges: ['Rewrite it.'] } };
  await w.script([fixer(), never]);
  const gate = { agent: 'command' as const, model: 'scripted-gate' };
  const rec = await runFixRound(w.env({ gate, gateMaxLoops: 2 }), w.ctx(), 1, [BUG]);
  expect(rec.outcome).toBe('gate-blocked');
  expect(rec.message).toBe('The gate reviewer did not approve the fix after 2 loop(s): - Rewrite it.');
  expect(await w.originHead()).toBe(w.sandbox.headSha);
});

it('a spent budget stops the round before the fixer starts', async () => {
  await w.script([fixer()]);
  const rec = await runFixRound(w.env({ budget: createBudget({ maxTokens: 0 }, {}) }), w.ctx(), 1, [BUG]);
  expect(rec.outcome).toBe('budget');
  expect(rec.message).toMatch(/max-tokens 0.*\. Nothing was pushed\.$/);
  expect(w.calls()).toEqual([]);
  expect(await w.originHead()).toBe(w.sandbox.headSha);
});

const TEST_FILE = 'test/add.test.js';
const FAILING_TEST =
  "const assert = require('node:assert');\nconst { add } = require('../src/math.js');\n" +
  "assert.strictEqual(add(2, 3), 5, 'add(2, 3) should be 5');\n";
const confirmer = (confirmed = true) => ({
  role: 'confirm',
  edits: { [TEST_FILE]: FAILING_TEST },
  answer: {
    findingId: BUG.id,
    confirmed,
    testFile: TEST_FILE,
    testCommand: `node ${TEST_FILE}`,
    explanation: 'no bug',
  },
});

it('a confirmed finding: its failing test goes into the one fix commit, and passes after the fix', async () => {
  await w.script([confirmer(), fixer()]);
  const rec = await runFixRound(w.env({ confirm: 'P1', verify: [VERIFY] }), w.ctx(), 1, [BUG]);
  expect(rec.outcome, rec.message).toBe('pushed');
  expect(await w.originHead()).toBe(rec.commitSha);
  const files = (await w.sandbox.originGit(['diff', '--name-only', w.sandbox.headSha, rec.commitSha!])).stdout;
  expect(files.trim().split('\n')).toEqual(['src/math.js', TEST_FILE]);
  expect(rec.confirmed).toMatchObject([{ findingId: BUG.id, testFile: TEST_FILE, passesAfter: rec.commitSha }]);
  // The fixer was told which test it must make pass without changing it.
  expect(w.calls().find((c) => c.role === 'fixer')!.prompt).toContain(JSON.stringify(TEST_FILE));
});

it('a fix that changes the confirmed test proves nothing: nothing is pushed', async () => {
  await w.script([confirmer(), fixer({ edits: { 'src/math.js': FIXED_MATH, [TEST_FILE]: 'process.exit(0);\n' } })]);
  const rec = await runFixRound(w.env({ confirm: 'P1', gateMaxLoops: 1 }), w.ctx(), 1, [BUG]);
  expect(rec.outcome).toBe('verify-failed');
  expect(rec.message).toBe(`The confirmed test of ${BUG.id} does not pass after the fix. Nothing was pushed.`);
  expect(rec.confirmed![0]!.failedAfter).toBe(`the fix changed its test file ${TEST_FILE}`);
  expect(await w.originHead()).toBe(w.sandbox.headSha);
});

it('no finding confirmed: the fixer never runs and nothing is pushed', async () => {
  await w.script([confirmer(false), fixer()]);
  const rec = await runFixRound(w.env({ confirm: 'P1' }), w.ctx(), 1, [BUG]);
  expect(rec.outcome).toBe('no-changes');
  expect(rec.message).toBe('No finding could be confirmed by a failing test, so nothing was fixed.');
  expect(rec.unconfirmed).toEqual([{ findingId: BUG.id, reason: 'no bug' }]);
  expect(w.calls().map((c) => c.role)).toEqual(['confirm']);
  expect(await w.originHead()).toBe(w.sandbox.headSha);
});

// A registry token setup-env gave an install ends up in `.npmrc` or a snapshot the fixer commits.
it('refuses a fix commit that holds a secret value the run knows, naming the file', async () => {
  const token = 'npm_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm';
  await w.script([fixer({ edits: { 'src/math.js': FIXED_MATH, '.npmrc': `//registry.test/:_authToken=${token}\n` } })]);
  const rec = await runFixRound(w.env({ verify: [VERIFY], secretValues: () => [token] }), w.ctx(), 1, [BUG]);
  expect(rec.outcome).toBe('refused');
  expect(rec.message).toBe('The fix commit holds a secret value the run knows, in .npmrc. Nothing was pushed.');
  expect(await w.originHead()).toBe(w.sandbox.headSha);
});

it('a fix of a failing setup may not change registry configuration', async () => {
  const setupFails = finding({ id: 'SETUP-fails', title: 'setup fails on this head', file: 'package.json' });
  await w.script([fixer({ edits: { 'package.json': '{"name":"x"}\n', '.npmrc': 'registry=http://evil.test/\n' } })]);
  const rec = await runFixRound(w.env(), w.ctx(), 1, [setupFails]);
  expect(rec.outcome).toBe('refused');
  expect(rec.message).toContain('.npmrc (registry configuration)');
  expect(await w.originHead()).toBe(w.sandbox.headSha);
});

it('runs setup again before verify with the paths the fix commit changed', async () => {
  await w.script([fixer({ edits: { 'src/math.js': FIXED_MATH, 'package.json': '{"name":"sample","scripts":{}}\n' } })]);
  const seen: string[][] = [];
  const beforeVerify = async (changed: readonly string[]) => void seen.push([...changed]);
  const rec = await runFixRound(w.env({ verify: [VERIFY], beforeVerify }), w.ctx(), 1, [BUG]);
  expect(rec.outcome, rec.message).toBe('pushed');
  expect(seen).toEqual([['package.json', 'src/math.js']]);
});

it('verify meets none of the replace refs a command before it planted, with no setup step too', async () => {
  // The head's test run made a replacement; the fix's verify makes the same one, as git replace
  // refuses to when it is there already.
  const blob = (await w.git(['rev-parse', 'HEAD:README.md'])).stdout.trim();
  const other = (await w.git(['rev-parse', 'HEAD:package.json'])).stdout.trim();
  const plant = `git replace ${blob} ${other}`;
  await w.git(['replace', blob, other]);
  await w.script([fixer()]);
  const rec = await runFixRound(w.env({ verify: [plant, VERIFY] }), w.ctx(), 1, [BUG]);
  expect(rec.outcome, rec.message).toBe('pushed');
  expect((await w.git(['for-each-ref', 'refs/replace/'])).stdout).toBe('');
});
