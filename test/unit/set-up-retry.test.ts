// When is a sandboxed call started again? Only when bubblewrap's own status says that its child was
// made and the command never started. The status texts below are bubblewrap 0.8.0's, written to
// `--json-status-fd 3` as root by
//   bwrap --die-with-parent --unshare-pid --ro-bind / / --dev /dev --proc /proc [extra] --json-status-fd 3 -- cmd
// with: cmd /bin/true; cmd /bin/false; extra `--bind /nonexistent /x` (set-up fails: "Can't find source
// path"); cmd /nonexist (execvp fails); and `bwrap --bogus` (refused before any child).
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runProcess, type ProcessResult } from '../../src/process/process.js';
import { reportingStatus, setUpFailed, startedInItsSandbox } from '../../src/sandbox/set-up-retry.js';

const CHILD = '{ "child-pid": 11072, "mnt-namespace": 4026532177, "pid-namespace": 4026532180 }\n';
const RAN_TRUE = `${CHILD}{ "exit-code": 0 }\n`;
const RAN_FALSE = `${CHILD}{ "exit-code": 1 }\n`;
const SET_UP_FAILED = CHILD;
const EXEC_FAILED = CHILD;
const REFUSED = '';

function result(exitCode: number | null, more: Partial<ProcessResult> = {}): ProcessResult {
  return { exitCode, signal: null, stdout: '', stderr: '', timedOut: false, durationMs: 1, ...more };
}

describe('setUpFailed', () => {
  it('is true when bubblewrap made its child and died before the command started', () => {
    const bwrapSaid = "bwrap: Can't find source path /nonexistent: No such file or directory\n";
    expect(setUpFailed(SET_UP_FAILED, result(1, { stderr: bwrapSaid }))).toBe(true);
    // The command was not found: it did not start either.
    expect(setUpFailed(EXEC_FAILED, result(1))).toBe(true);
  });

  it('is false for a command that ran, whatever it printed', () => {
    const forged = "bwrap: Can't bind mount /oldroot/tmp/x on /newroot/tmp/x: No such file or directory\n";
    expect(setUpFailed(RAN_FALSE, result(1, { stderr: forged }))).toBe(false);
    expect(setUpFailed(RAN_TRUE, result(0))).toBe(false);
  });

  it('is false when bubblewrap refused its arguments before it made a child', () => {
    expect(setUpFailed(REFUSED, result(1, { stderr: 'bwrap: Unknown option --bogus\n' }))).toBe(false);
  });

  it('is false for a call ended from outside, or by its watchdog', () => {
    expect(setUpFailed(SET_UP_FAILED, result(null, { signal: 'SIGKILL' }))).toBe(false);
    expect(setUpFailed(SET_UP_FAILED, result(1, { timedOut: true }))).toBe(false);
    expect(setUpFailed(SET_UP_FAILED, result(137))).toBe(false);
  });

  it('is false for a status it cannot read', () => {
    expect(setUpFailed(`${CHILD}{ "exit-co`, result(1))).toBe(false);
    expect(setUpFailed('child-pid\n', result(1))).toBe(false);
  });
});

describe('startedInItsSandbox, with a stand-in for bubblewrap started through reportingStatus', () => {
  let dir: string;
  let fakeBwrap: string;
  let starts: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'set-up-retry-'));
    starts = path.join(dir, 'starts');
    writeFileSync(starts, '');
    // Writes what bubblewrap writes on the descriptor it is given: the child's pid, then the exit
    // code only when the command "started" (here: from its `fail-set-up-times`-th start on).
    fakeBwrap = path.join(dir, 'bwrap');
    writeFileSync(
      fakeBwrap,
      [
        '#!/bin/sh',
        '[ "$1" = --json-status-fd ] || exit 2',
        'fd=$2; shift 2',
        'echo x >> "$STARTS"',
        'n=$(wc -l < "$STARTS")',
        'printf \'{ "child-pid": %s }\\n\' $$ >&"$fd"',
        'if [ "$n" -le "$FAIL_SET_UP_TIMES" ]; then echo "bwrap: Can\'t bind mount /oldroot/x on /newroot/x" >&2; exit 1; fi',
        'shift # --',
        '"$@"; code=$?',
        'printf \'{ "exit-code": %s }\\n\' $code >&"$fd"',
        'exit $code',
      ].join('\n'),
    );
    chmodSync(fakeBwrap, 0o755);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (failSetUp: number, command: string[], log: string[], mayStart = () => true) =>
    startedInItsSandbox(
      [fakeBwrap, '--', ...command],
      (jail) =>
        runProcess({
          command: jail[0]!,
          args: jail.slice(1),
          cwd: dir,
          env: { PATH: process.env.PATH, STARTS: starts, FAIL_SET_UP_TIMES: String(failSetUp) },
          timeoutMs: 10_000,
        }),
      { call: 7, mayStart, log: (l) => log.push(l) },
    );
  const startCount = () => readFileSync(starts, 'utf8').split('\n').filter(Boolean).length;

  it('starts a call again after its set-up failed, and logs it', async () => {
    const log: string[] = [];
    const r = await run(1, ['/bin/echo', 'ran'], log);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'ran\n' });
    expect(startCount()).toBe(2);
    expect(log).toEqual([
      "isolation: the sandbox of call 7 failed in its own set-up before its command started (bwrap: Can't bind " +
        'mount /oldroot/x on /newroot/x); starting it again (1 of 2)',
    ]);
  });

  it('gives up after two more starts, with the last failure', async () => {
    const log: string[] = [];
    const r = await run(5, ['/bin/echo', 'ran'], log);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("Can't bind mount");
    expect(startCount()).toBe(3);
    expect(log).toHaveLength(2);
  });

  it('never starts again a command that ran and failed, whatever it printed', async () => {
    const log: string[] = [];
    const forge = 'echo "bwrap: Can\'t bind mount /oldroot/x on /newroot/x" >&2; exit 1';
    const r = await run(0, ['/bin/sh', '-c', forge], log);
    expect(r.exitCode).toBe(1);
    expect(startCount()).toBe(1);
    expect(log).toEqual([]);
  });

  it('starts nothing more once the sandbox closes', async () => {
    const log: string[] = [];
    const r = await run(5, ['/bin/echo', 'ran'], log, () => false);
    expect(r.exitCode).toBe(1);
    expect(startCount()).toBe(1);
  });

  it('hands bubblewrap a descriptor it can write, through the file named as an argument', () => {
    const jail = reportingStatus(['/usr/bin/bwrap', '--unshare-pid', '--', '/bin/true'], '/x/status');
    expect(jail).toEqual([
      '/bin/sh',
      '-c',
      'exec 3>"$0" || exit 126; exec "$@"',
      '/x/status',
      '/usr/bin/bwrap',
      '--json-status-fd',
      '3',
      '--unshare-pid',
      '--',
      '/bin/true',
    ]);
  });
});
