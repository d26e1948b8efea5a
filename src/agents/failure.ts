// How a failed agent process is described in error messages, shared by every adapter.
import type { ProcessResult } from '../process/process.js';

const STDERR_TAIL_LINES = 20;

/** Why the process failed, or undefined when it exited 0. */
export function processFailure(res: ProcessResult, timeoutMs: number): string | undefined {
  if (res.timedOut) return `timed out after ${formatMs(timeoutMs)} and was killed`;
  if (res.exitCode === 0) return undefined;
  if (res.exitCode !== null) return `exited with code ${res.exitCode}`;
  if (res.signal !== null) return `was killed by ${res.signal}`;
  return 'could not be started';
}

/** The last lines of stderr, for error messages. */
export function stderrTail(stderr: string, lines = STDERR_TAIL_LINES): string {
  return stderr.trimEnd().split('\n').slice(-lines).join('\n');
}

function formatMs(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

const DETAIL_CHARS = 200;

/**
 * What a failed call's error says, for one line of a report: its first line without the agent's
 * name (the report names it) and the stderr that follows, shortened.
 */
export function failureDetail(message: string): string {
  const line = (message.split('\n')[0] ?? '').replace(/^\w+ agent \([^)]*\) /, '').replace(/; stderr:$/, '');
  return line.length > DETAIL_CHARS ? `${line.slice(0, DETAIL_CHARS)}…` : line;
}
