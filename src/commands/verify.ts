// The project's own verification commands (SPEC §6): each must pass before a push.
// They run the PR's code, so they get the same token-free environment as the agents.
import { runProcess } from '../agents/process.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { VerifyResult } from '../fix/types.js';

export const TAIL_LINES = 40;

export interface VerifyOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  redact: (text: string) => string;
  log: (line: string) => void;
  /** Runs each command as the sandbox user, with write access to the checkout. */
  sandbox?: Sandbox;
}

function tail(text: string, lines: number): string {
  const all = text.replace(/\s+$/, '').split('\n');
  return all.slice(-lines).join('\n');
}

/** Runs the commands in order and stops at the first failure. */
export async function runVerify(
  commands: string[],
  opts: VerifyOptions,
): Promise<{ ok: boolean; results: VerifyResult[] }> {
  const results: VerifyResult[] = [];
  for (const command of commands) {
    opts.log(`verify: ${command}`);
    const spec = {
      command: '/bin/sh',
      args: ['-c', `exec 2>&1; ${command}`],
      cwd: opts.cwd,
      env: opts.env,
      timeoutMs: opts.timeoutMs,
    };
    const r = opts.sandbox ? await opts.sandbox.run(spec, { workTree: opts.cwd }) : await runProcess(spec);
    const result: VerifyResult = {
      command,
      exitCode: r.exitCode,
      durationMs: r.durationMs,
      outputTail: opts.redact(tail(r.stdout + r.stderr, TAIL_LINES)),
      timedOut: r.timedOut,
    };
    results.push(result);
    if (r.exitCode !== 0 || r.timedOut) return { ok: false, results };
  }
  return { ok: true, results };
}
