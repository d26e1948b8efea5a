// bubblewrap sets up a call's view in its child before the command starts: it binds the root
// recursively, then remounts every mount below it read-only. A mount another call of the run takes
// away meanwhile (parallel reviewers end and unmount their overlay and tmpfs layers) makes that set-up
// fail ("Can't bind mount /oldroot/… on …", "Can't remount readonly on …") though the command never
// ran. Such a call is started again, at most SET_UP_RETRIES times more.
//
// Whether the command started is never read from the call's output: the command writes there too, and
// could make itself run again by printing bubblewrap's message. bubblewrap says it on a file
// descriptor of its own (--json-status-fd): one document with the child's pid once the child is made,
// and one with the exit code only when the set-up finished and the command was executed (its child
// writes one byte to a pipe right before execvp, a second one if execvp fails; the exit code is
// reported on exactly one). bubblewrap closes that descriptor before the command starts, so the command
// can neither write it nor keep it open.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ProcessResult } from '../process/process.js';

/** How many times more a call whose sandbox failed in its own set-up is started. */
const SET_UP_RETRIES = 2;
/** A short pause before starting again: the other call's unmounts are usually done by then. */
const RETRY_PAUSE_MS = 200;

/**
 * The jail with bubblewrap writing its status to `file`. A shell started as root opens it: sudo
 * closes every descriptor above stderr, so one of ours would not reach bubblewrap. The file's name is
 * an argument, never part of the script.
 */
export function reportingStatus(jail: readonly string[], file: string): string[] {
  const [bwrap, ...rest] = jail;
  if (!bwrap) throw new Error('the jail has no bubblewrap to start');
  return ['/bin/sh', '-c', 'exec 3>"$0" || exit 126; exec "$@"', file, bwrap, '--json-status-fd', '3', ...rest];
}

/**
 * True when bubblewrap made the call's child but failed before the command started: its status has
 * the child's pid and no exit code, and bubblewrap itself exited 1 (its `die`). Anything else (a
 * command that ran and failed, a call killed at its time or bound, bubblewrap refusing its arguments
 * before it made a child, a status it cannot read) is the call's outcome as it is.
 */
export function setUpFailed(status: string, result: ProcessResult): boolean {
  if (result.timedOut || result.signal !== null || result.exitCode !== 1) return false;
  const documents: Record<string, unknown>[] = [];
  for (const line of status.split('\n').filter((l) => l.trim() !== '')) {
    try {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== 'object' || parsed === null) return false;
      documents.push(parsed as Record<string, unknown>);
    } catch {
      return false;
    }
  }
  return documents.some((d) => 'child-pid' in d) && !documents.some((d) => 'exit-code' in d);
}

/**
 * Runs a jailed call, and again (logged) while its sandbox failed in its own set-up. `start` must spawn
 * before it first awaits; `mayStart` is asked right before each new start (a closing sandbox starts none).
 */
export async function startedInItsSandbox(
  jail: readonly string[],
  start: (jail: string[]) => Promise<ProcessResult>,
  opts: { call: number; mayStart: () => boolean; log: (line: string) => void },
): Promise<ProcessResult> {
  for (let retry = 0; ; retry++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'prl-bwrap-status-'));
    const file = path.join(dir, 'status');
    let result: ProcessResult;
    let failed: boolean;
    try {
      writeFileSync(file, '', { mode: 0o600 });
      result = await start(reportingStatus(jail, file));
      failed = setUpFailed(readFileSync(file, 'utf8'), result);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    if (!failed || retry === SET_UP_RETRIES) return result;
    opts.log(
      `isolation: the sandbox of call ${opts.call} failed in its own set-up before its command started ` +
        `(${lastLine(result.stderr)}); starting it again (${retry + 1} of ${SET_UP_RETRIES})`,
    );
    await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    if (!opts.mayStart()) return result;
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').slice(-1)[0]?.slice(-300) || 'no message';
}
