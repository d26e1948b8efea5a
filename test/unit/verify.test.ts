// The project's verify commands, run as real shell processes in a checkout: in order, stopping at
// the first failure, with the output's tail (stderr included, secrets redacted) kept as evidence,
// and only the environment they are given.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runVerify, TAIL_LINES } from '../../src/commands/verify.js';

const SECRET = 'ghs_verifysecret123';
let dir: string;
let logs: string[];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'verify-'));
  logs = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const opts = (over: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}) => ({
  cwd: dir,
  env: over.env ?? { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  timeoutMs: over.timeoutMs ?? 20_000,
  redact: (t: string) => t.split(SECRET).join('***'),
  log: (l: string) => logs.push(l),
});

it('runs every command in the checkout, in order, and passes when all exit 0', async () => {
  const res = await runVerify(['echo one > first.txt', 'cat first.txt && echo two'], opts());
  expect(res.ok).toBe(true);
  expect(res.results.map((r) => [r.command, r.exitCode, r.timedOut, r.outputTail])).toEqual([
    ['echo one > first.txt', 0, false, ''],
    ['cat first.txt && echo two', 0, false, 'one\ntwo'],
  ]);
  expect(logs).toEqual(['verify: echo one > first.txt', 'verify: cat first.txt && echo two']);
});

it('stops at the first failing command: its exit code and redacted stderr are the evidence', async () => {
  const failing = `echo checking; echo "token ${SECRET} leaked" >&2; exit 3`;
  const res = await runVerify(['true', failing, 'touch never.txt'], opts());
  expect(res.ok).toBe(false);
  expect(res.results.map((r) => r.command)).toEqual(['true', failing]);
  expect(res.results[1]!.exitCode).toBe(3);
  expect(res.results[1]!.outputTail).toBe('checking\ntoken *** leaked');
  // The command after the failure never ran.
  expect(existsSync(path.join(dir, 'never.txt'))).toBe(false);
});

it(`keeps only the last ${TAIL_LINES} lines of a long output`, async () => {
  const res = await runVerify(['seq 1 100; exit 1'], opts());
  const lines = res.results[0]!.outputTail.split('\n');
  expect(lines).toHaveLength(TAIL_LINES);
  expect(lines[0]).toBe(String(100 - TAIL_LINES + 1));
  expect(lines.at(-1)).toBe('100');
});

it('a command past its time fails the verification as timed out', async () => {
  const res = await runVerify(['sleep 20', 'touch never.txt'], opts({ timeoutMs: 300 }));
  expect(res.ok).toBe(false);
  expect(res.results).toHaveLength(1);
  expect(res.results[0]!.timedOut).toBe(true);
  expect(existsSync(path.join(dir, 'never.txt'))).toBe(false);
});

it('sees only the environment it is given, not the action process', async () => {
  process.env.VERIFY_TEST_PARENT_ONLY = 'leaked';
  try {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', GIVEN: 'yes' };
    const res = await runVerify(['echo "given=$GIVEN parent=${VERIFY_TEST_PARENT_ONLY:-none}"'], opts({ env }));
    expect(res.results[0]!.outputTail).toBe('given=yes parent=none');
  } finally {
    delete process.env.VERIFY_TEST_PARENT_ONLY;
  }
});

it('writes to /dev/stderr and /dev/stdout as in a runner step (a pipe, not the socket node gives a child)', async () => {
  const res = await runVerify(
    ['echo to-stderr >/dev/stderr; echo to-stdout >/dev/stdout; echo tee | tee /dev/stderr'],
    opts(),
  );
  expect(res.results[0]!.exitCode).toBe(0);
  expect(res.results[0]!.outputTail).toBe('to-stderr\nto-stdout\ntee\ntee');
});

it('ends soon after the command when something it started in the background keeps its output open', async () => {
  const started = Date.now();
  const res = await runVerify(['sleep 10 & echo started; exit 4'], opts());
  expect(res.results[0]).toMatchObject({ exitCode: 4, outputTail: 'started', timedOut: false });
  expect(Date.now() - started).toBeLessThan(5_000);
});

it('runs the command as it is when its output cannot go through a pipe (no cat on PATH)', async () => {
  const res = await runVerify(['echo plain; exit 5'], opts({ env: { PATH: '/nonexistent' } }));
  expect(res.results[0]).toMatchObject({ exitCode: 5, outputTail: 'plain' });
});
