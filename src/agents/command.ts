// The `command` agent (SPEC §4): a user-given command line that reads the prompt
// on stdin and prints the answer on stdout. It is also how tests drive scripted agents.
import { mkdir } from 'node:fs/promises';
import { agentEnv } from './env.js';
import { runProcess } from './process.js';
import type { ProcessResult } from './process.js';
import { AgentError, NO_USAGE } from './types.js';
import type { AgentAdapter, AgentAnswer, Invocation } from './types.js';
import { processFailure, stderrTail } from './failure.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { callAccess } from './call-access.js';
export { stderrTail } from './failure.js';

export interface CommandAdapterOptions {
  /** The environment to scrub and pass on; default process.env. */
  baseEnv?: NodeJS.ProcessEnv;
  /** Values (tokens) no variable may carry into the agent's environment. */
  secretValues?: readonly string[];
  /** Runs the command as the sandbox user. */
  sandbox?: Sandbox;
}

export function createCommandAdapter(commandLine: string, opts: CommandAdapterOptions = {}): AgentAdapter {
  if (commandLine.trim() === '')
    throw new Error('agent-command is empty: give a command line that reads the prompt on stdin');
  return {
    kind: 'command',
    async run(inv: Invocation): Promise<AgentAnswer> {
      await mkdir(inv.stateDir, { recursive: true, mode: 0o700 });
      const env = agentEnv(
        opts.baseEnv ?? process.env,
        {
          REVIEW_LOOP_ROLE: inv.role,
          REVIEW_LOOP_MODEL: inv.model,
          REVIEW_LOOP_ROUND: String(inv.round),
          REVIEW_LOOP_CONTEXT_DIR: inv.contextDir,
          REVIEW_LOOP_AGENT_NAME: inv.name,
          HOME: inv.stateDir,
        },
        opts.secretValues,
      );
      // sh -c so users can write pipes and redirections in agent-command.
      const spec = {
        command: '/bin/sh',
        args: ['-c', commandLine],
        cwd: inv.cwd,
        env,
        stdin: inv.prompt,
        timeoutMs: inv.timeoutMs,
      };
      const res = opts.sandbox ? await opts.sandbox.run(spec, callAccess(inv)) : await runProcess(spec);
      const cause = processFailure(res, inv.timeoutMs);
      if (cause !== undefined) {
        const tail = stderrTail(res.stderr);
        throw new AgentError(
          `command agent (${inv.name}, model ${inv.model}) ${cause}${tail ? `; stderr:\n${tail}` : ''}`,
          { agent: 'command', model: inv.model, stderrTail: tail, timedOut: res.timedOut },
        );
      }
      return { text: res.stdout, model: null, sessionId: null, usage: { ...NO_USAGE }, durationMs: res.durationMs };
    },
  };
}
