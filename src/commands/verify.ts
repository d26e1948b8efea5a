// The project's own verification commands: each must pass before a push.
// They run the PR's code, so they get the same token-free environment as the agents.
import type { VerifyResult } from '../domain/fix.js';
import { outputTail } from './output-tail.js';
import { runShell, succeeded, type ShellEnv } from './shell.js';
import { withheldBySandbox } from './withheld.js';

export const TAIL_LINES = 40;

/** Each command runs as the sandbox user, with write access to the checkout. */
export interface VerifyOptions extends ShellEnv {
  redact: (text: string) => string;
  log: (line: string) => void;
  /**
   * One time limit for all the commands together (setup, the head's test run), instead of
   * `timeoutMs` for each: a command still running when it is spent is stopped, as one past its own.
   */
  totalMs?: number;
  /** What the log calls the commands: `verify` when not given. */
  what?: string;
}

export interface VerifyOutcome {
  ok: boolean;
  results: VerifyResult[];
  /** How long the commands took together. */
  durationMs: number;
  /** Why the failed command could not work in its call (sudo, Docker: withheld.ts), when its output shows it. */
  withheld?: string;
}

/** Runs the commands in order and stops at the first failure. */
export async function runVerify(commands: string[], opts: VerifyOptions): Promise<VerifyOutcome> {
  const results: VerifyResult[] = [];
  const started = Date.now();
  const durationMs = () => Date.now() - started;
  for (const command of commands) {
    opts.log(`${opts.what ?? 'verify'}: ${command}`);
    // At least a second: a command that starts with the limit all but spent fails as timed out.
    const timeoutMs = opts.totalMs === undefined ? opts.timeoutMs : Math.max(1000, opts.totalMs - durationMs());
    const r = await runShell(command, { ...opts, timeoutMs, trustedCommand: true });
    const result: VerifyResult = {
      command,
      exitCode: r.exitCode,
      durationMs: r.durationMs,
      outputTail: opts.redact(outputTail(r.stdout + r.stderr, TAIL_LINES)),
      timedOut: r.timedOut,
    };
    results.push(result);
    if (!succeeded(r)) {
      const withheld = opts.sandbox?.user ? withheldBySandbox(r.stdout + r.stderr, opts.env) : null;
      return { ok: false, results, durationMs: durationMs(), ...(withheld ? { withheld } : {}) };
    }
  }
  return { ok: true, results, durationMs: durationMs() };
}
