// The `command` agent: a user-given command line that reads the prompt
// on stdin and prints the answer on stdout. It is also how tests drive scripted agents.
// It runs like the four CLIs (cli-common.ts), through `/bin/sh -c` so users can write pipes
// and redirections, with its state folder as HOME; it may say what it spent (command-usage.ts).
import { adapterLog, cliEnv, cliError, processFailure, runCli, type CliAdapterOptions } from './cli-common.js';
import { mkdir } from 'node:fs/promises';
import { namedPaths } from '../sandbox/named-paths.js';
import { clearUsage, readUsage, usageFile } from './command-usage.js';
import type { AgentAdapter, AgentAnswer, Invocation } from './types.js';

export type CommandAdapterOptions = Pick<CliAdapterOptions, 'baseEnv' | 'secretValues' | 'sandbox' | 'log'>;

export function createCommandAdapter(commandLine: string, opts: CommandAdapterOptions = {}): AgentAdapter {
  if (commandLine.trim() === '')
    throw new Error('agent-command is empty: give a command line that reads the prompt on stdin');
  const shell: CliAdapterOptions = { ...opts, binPath: '/bin/sh', shown: namedPaths(commandLine) };
  return {
    kind: 'command',
    async run(inv: Invocation): Promise<AgentAnswer> {
      await mkdir(inv.stateDir, { recursive: true, mode: 0o700 });
      await clearUsage(inv.stateDir);
      const env = cliEnv(opts, inv, { HOME: inv.stateDir, REVIEW_LOOP_USAGE_FILE: usageFile(inv.stateDir) });
      const res = await runCli('command', shell, inv, ['-c', commandLine], env, inv.prompt);
      const cause = processFailure(res, inv.timeoutMs);
      if (cause !== undefined) throw cliError('command', inv, cause, res);
      const usage = await readUsage(inv.stateDir, adapterLog('command', opts, inv));
      return { text: res.stdout, model: null, sessionId: null, usage, durationMs: res.durationMs };
    },
  };
}
