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
}

export interface VerifyOutcome {
  ok: boolean;
  results: VerifyResult[];
  /** Why the failed command could not work in its call (sudo, Docker: withheld.ts), when its output shows it. */
  withheld?: string;
}

/** Runs the commands in order and stops at the first failure. */
export async function runVerify(commands: string[], opts: VerifyOptions): Promise<VerifyOutcome> {
  const results: VerifyResult[] = [];
  for (const command of commands) {
    opts.log(`verify: ${command}`);
    const r = await runShell(command, { ...opts, trustedCommand: true });
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
      return { ok: false, results, ...(withheld ? { withheld } : {}) };
    }
  }
  return { ok: true, results };
}
