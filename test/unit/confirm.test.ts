// Confirmation against a real checkout: the e2e suite's scripted agent writes a test through the
// real `command` adapter, and the action runs the test command itself on the PR head. A finding
// is confirmed only when that test fails there; the confirmer's test alone is committed (locally),
// and anything else it or its test wrote is put back. Every refusal names why.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { confirmFindings, needsConfirmation, type ConfirmEnv } from '../../src/fix/confirm.js';
import { finding } from '../factories.js';
import { createFixWorld, type FixWorld } from './fix-world.js';

const BUG = finding({ id: 'BUG-5bb51bb7', priority: 'P1', title: 'add() subtracts instead of adding' });
const TEST_FILE = 'test/add.test.js';
const FAILING_TEST =
  "const fs = require('node:fs');\nconst assert = require('node:assert');\n" +
  "const { add } = require('../src/math.js');\n" +
  "fs.mkdirSync('coverage', { recursive: true });\nfs.writeFileSync('coverage/run.json', '{}');\n" +
  "assert.strictEqual(add(2, 3), 5, 'add(2, 3) should be 5');\n";
const PASSING_TEST = "const { add } = require('../src/math.js');\nif (typeof add !== 'function') process.exit(1);\n";
const COMMAND = `node ${TEST_FILE}`;

let w: FixWorld;
beforeAll(async () => {
  w = await createFixWorld();
});
afterAll(() => w.close());
beforeEach(() => w.reset());

function env(over: Partial<ConfirmEnv> = {}): ConfirmEnv {
  const base = w.env();
  return { ...base, confirmer: base.fixer, threshold: 'P1', ...over };
}

const confirmer = (answer: Record<string, unknown>, edits: Record<string, string> = { [TEST_FILE]: FAILING_TEST }) => ({
  role: 'confirm',
  edits,
  answer: { findingId: BUG.id, confirmed: true, testFile: TEST_FILE, testCommand: COMMAND, ...answer },
});
const head = async () => (await w.git(['rev-parse', 'HEAD'])).stdout.trim();
const status = async () => (await w.git(['status', '--porcelain', '--untracked-files=all'])).stdout.trim();

it('confirms a finding whose test fails on the PR head, and commits only that test locally', async () => {
  await w.script([confirmer({ testName: 'add adds' })]);
  const e = env();
  const out = await confirmFindings(e, w.ctx(), 1, [BUG]);
  expect(out.unconfirmed).toEqual([]);
  expect(out.confirmed).toEqual([
    {
      findingId: BUG.id,
      testFile: TEST_FILE,
      files: [TEST_FILE],
      testName: 'add adds',
      command: COMMAND,
      failedOutput: expect.stringContaining('add(2, 3) should be 5'),
      passesAfter: null,
    },
  ]);
  expect(e.alreadyConfirmed.has(BUG.id)).toBe(true);
  // One local commit with the test only; what running the test wrote is gone; origin untouched.
  expect((await w.git(['log', '-1', '--format=%s'])).stdout.trim()).toBe(`test: reproduce ${BUG.id}`);
  const files = (await w.git(['diff', '--name-only', w.sandbox.headSha, 'HEAD'])).stdout.trim();
  expect(files).toBe(TEST_FILE);
  expect(existsSync(path.join(w.sandbox.workDir, 'coverage/run.json'))).toBe(false);
  expect(await status()).toBe('');
  expect(await w.originHead()).toBe(w.sandbox.headSha);
});

it('a test that passes on the PR head reproduces nothing: not confirmed, and its file removed', async () => {
  await w.script([confirmer({}, { [TEST_FILE]: PASSING_TEST })]);
  const out = await confirmFindings(env(), w.ctx(), 1, [BUG]);
  expect(out.confirmed).toEqual([]);
  expect(out.unconfirmed).toEqual([
    {
      findingId: BUG.id,
      reason:
        `not reproduced: its test (\`${COMMAND}\`) passes on the PR head, ` +
        "so the reviewer's claim could not be reproduced",
    },
  ]);
  expect(await head()).toBe(w.sandbox.headSha);
  expect(await status()).toBe('');
});

it('a confirmer that changes code is void, and the code is put back', async () => {
  const edits = { [TEST_FILE]: FAILING_TEST, 'src/math.js': 'module.exports = { add: () => 0 };\n' };
  await w.script([confirmer({}, edits)]);
  const out = await confirmFindings(env(), w.ctx(), 1, [BUG]);
  expect(out.unconfirmed[0]!.reason).toBe(
    'the confirmation is void: the confirm agent changed src/math.js, which is not a test file',
  );
  expect(await status()).toBe('');
  expect(await head()).toBe(w.sandbox.headSha);
});

it.each([
  [
    'no test written',
    { testCommand: COMMAND },
    {},
    'the confirm agent said it reproduced the finding but wrote no test',
  ],
  [
    'no command',
    { testCommand: null },
    undefined,
    'the confirm agent claimed a failing test but gave no command that runs it (testCommand)',
  ],
  [
    'a command that cannot run',
    { testCommand: 'no-such-test-runner x' },
    undefined,
    'its test command `no-such-test-runner x` could not run (exit 127): nothing was reproduced',
  ],
  [
    'no reproduction claimed',
    { confirmed: false, explanation: 'add() is correct for the inputs it gets' },
    undefined,
    'add() is correct for the inputs it gets',
  ],
])('not confirmed when %s, saying why', async (_name, answer, edits, reason) => {
  await w.script([confirmer(answer, edits)]);
  const out = await confirmFindings(env(), w.ctx(), 1, [BUG]);
  expect(out).toEqual({ confirmed: [], unconfirmed: [{ findingId: BUG.id, reason }] });
  expect(await status()).toBe('');
});

it('asks no confirmer about findings below the threshold, CI failures, or findings confirmed before', async () => {
  await w.script([confirmer({})]);
  const minor = finding({ id: 'QUAL-1', priority: 'P2' });
  const ci = finding({ id: 'CI-ci-test', priority: 'P1', category: 'ci' });
  const out = await confirmFindings(env({ alreadyConfirmed: new Set([BUG.id]) }), w.ctx(), 1, [BUG, minor, ci]);
  expect(out).toEqual({ confirmed: [], unconfirmed: [] });
  expect(w.calls()).toEqual([]);
  expect(needsConfirmation(finding({ priority: 'P0' }), 'P1')).toBe(true);
  expect(needsConfirmation(BUG, 'P0')).toBe(false);
  expect(needsConfirmation(BUG, 'none')).toBe(false);
});
