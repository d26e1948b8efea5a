// The project's own commands (verify commands and hooks) run one way: `/bin/sh -c` in the
// checkout, stderr folded into stdout, the token-free environment, the agent timeout, and as
// the sandbox user with write access to the work tree (plus any folder the command owns).
import { runProcess, type ProcessResult } from '../process/process.js';
import { namedPaths } from '../sandbox/named-paths.js';
import type { Sandbox } from '../sandbox/sandbox.js';

export interface ShellEnv {
  /** The checkout: the command's working directory and the work tree it may write. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  sandbox?: Sandbox;
  /**
   * The command line comes from the workflow or the base branch's config (verify, hooks), not
   * from an agent: the paths it names are shown to its call (src/sandbox/named-paths.ts).
   */
  trustedCommand?: boolean;
}

/** Runs one command line; `owned` are folders of its own it may write besides the work tree. */
export async function runShell(command: string, shell: ShellEnv, owned: string[] = []): Promise<ProcessResult> {
  const spec = {
    command: '/bin/sh',
    args: ['-c', `exec 2>&1; ${command}`],
    cwd: shell.cwd,
    env: shell.env,
    timeoutMs: shell.timeoutMs,
  };
  const shown = shell.trustedCommand ? { shown: namedPaths(command) } : {};
  return shell.sandbox ? shell.sandbox.run(spec, { workTree: shell.cwd, owned, ...shown }) : runProcess(spec);
}

/** True when the command exited 0 within its time. */
export const succeeded = (r: ProcessResult): boolean => r.exitCode === 0 && !r.timedOut;
