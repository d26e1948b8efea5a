// The project's commands run through a pipe whose folder sits in the call's TMPDIR. Without a
// sandbox (isolation: off, and these tests) that is the runner's TMPDIR, shared by every call:
// the folder must be gone when the call ends, however it ends (its exit, its time limit, a spawn
// that fails, the action being cancelled). Each test points TMPDIR at an empty folder of its own
// and counts what is left there.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runShell } from '../../src/commands/shell.js';
import { runProcess } from '../../src/process/process.js';
import { waitGone } from '../agents-core/helpers.js';

let top: string;
let checkout: string;
let callTmp: string;
beforeEach(() => {
  top = mkdtempSync(path.join(tmpdir(), 'shell-relay-'));
  checkout = path.join(top, 'checkout');
  callTmp = path.join(top, 'tmp');
  mkdirSync(checkout);
  mkdirSync(callTmp);
});
afterEach(() => rmSync(top, { recursive: true, force: true }));

const shell = (timeoutMs = 20_000, cwd = checkout) => ({
  cwd,
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TMPDIR: callTmp },
  timeoutMs,
});

it('the pipe is in a private folder of the call (0700) in its TMPDIR while it runs', async () => {
  const r = await runShell('for d in "$TMPDIR"/*; do stat -c %a "$d"; ls "$d"; done', shell());
  expect(r).toMatchObject({ exitCode: 0, timedOut: false, stdout: '700\nout\n' });
  expect(readdirSync(callTmp)).toEqual([]);
});

it.each([
  ['exits 0', 'echo done', 0],
  ['exits non-zero', 'echo failing; exit 3', 3],
])('leaves nothing in TMPDIR when the command %s', async (_, command, code) => {
  const r = await runShell(command, shell());
  expect(r.exitCode).toBe(code);
  expect(readdirSync(callTmp)).toEqual([]);
});

// The time limit is long enough for the shell to have made its pipe on a loaded machine; a shorter
// one could only make the test pass on code that leaks, never fail on code that does not.
it.each([
  ['ends at SIGTERM', 'sleep 30'],
  ['ignores SIGTERM', "trap '' TERM; sleep 30"],
])('leaves nothing in TMPDIR when a command killed at its time limit %s', async (_, command) => {
  const r = await runShell(command, shell(1_500));
  expect(r.timedOut).toBe(true);
  expect(readdirSync(callTmp)).toEqual([]);
});

it('leaves nothing in TMPDIR when the command cannot start (its working directory is gone)', async () => {
  const r = await runShell('echo never', shell(20_000, path.join(top, 'gone')));
  expect(r.exitCode).toBeNull();
  expect(r.stderr).toContain('does not exist');
  expect(readdirSync(callTmp)).toEqual([]);
});

it('runs the command on its output as it is when no folder can be made in TMPDIR (it does not exist)', async () => {
  const r = await runShell('echo plain; exit 5', { ...shell(), env: { ...shell().env, TMPDIR: path.join(top, 'no') } });
  expect(r).toMatchObject({ exitCode: 5, stdout: 'plain\n' });
});

it('leaves nothing in TMPDIR when the action is cancelled while the command runs (SIGTERM)', async () => {
  // A real action process: runShell bundled, run by a parent that listens for SIGTERM as the
  // action does (cancellation.ts), and is sent one while its command sleeps.
  const bundle = path.join(top, 'shell.mjs');
  const { buildSync } = await import('esbuild');
  buildSync({
    entryPoints: [new URL('../../src/commands/shell.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: bundle,
    logLevel: 'silent',
  });
  // The command says it runs (its pipe is made by then) and which process the action is.
  const started = path.join(top, 'started');
  const parent = path.join(top, 'parent.mjs');
  const call = { command: `echo "$PPID $ACTION_PID" > ${started}.tmp && mv ${started}.tmp ${started}; sleep 30` };
  writeFileSync(
    parent,
    [
      `const { runShell } = await import(${JSON.stringify(bundle)});`,
      "process.on('SIGTERM', () => {});",
      `const shell = ${JSON.stringify(shell(60_000))};`,
      'shell.env.ACTION_PID = String(process.pid);',
      `const r = await runShell(${JSON.stringify(call.command)}, shell);`,
      'process.stdout.write(`returned ${r.signal}\\n`);',
    ].join('\n'),
  );
  const action = runProcess({
    command: process.execPath,
    args: [parent],
    cwd: top,
    env: process.env,
    timeoutMs: 60_000,
  });
  let pids = '';
  for (const until = Date.now() + 30_000; Date.now() < until && !pids;) {
    pids = (await readFile(started, 'utf8').catch(() => '')).trim();
    if (!pids) await new Promise((r) => setTimeout(r, 25));
  }
  const [shellPid, actionPid] = pids.split(' ').map(Number);
  expect(actionPid).toBeGreaterThan(0);
  expect(readdirSync(callTmp)).toHaveLength(1); // the pipe's folder, while the command runs
  process.kill(actionPid!, 'SIGTERM');
  const r = await action;
  expect(r.stdout).toBe('returned SIGKILL\n');
  expect(await waitGone(shellPid!)).toBe(true);
  expect(readdirSync(callTmp)).toEqual([]);
});
