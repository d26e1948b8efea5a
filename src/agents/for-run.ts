// Every agent a run uses, ready before the first round: the pinned CLIs installed on demand
// (cli-adapters.ts), the `command` agent, each with its own environment allowlist, and the
// environment of verify commands and hooks. An agent kind that cannot run fails here, before
// anything is posted.
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Sandbox } from '../sandbox/sandbox.js';
import { buildCliAdapters } from './cli-adapters.js';
import { agentEnv } from './env.js';
import { agentAllowlist, commandAllowlist } from './env-allowlist.js';
import { actionsInstallCache } from './install-cache.js';
import { createRegistry, type AgentRegistry } from './registry.js';
import type { AgentAdapter, AgentKind } from './types.js';

export interface RunAgentsSetup {
  /** Every agent kind the run's roles name. */
  kinds: AgentKind[];
  agentCommand?: string;
  agentConfig: Record<string, Record<string, unknown>>;
  agentVersions: Partial<Record<AgentKind, string>>;
  /** The cache-clis input: keep installed CLIs in the Actions cache between runs. */
  cacheClis: boolean;
  /** The agent-env input: extra variable names every agent may see. */
  agentEnvNames: readonly string[];
  /** The verify-env input: the only secrets verify commands and hooks get. */
  verifyEnvNames: readonly string[];
  /** The step's environment, filtered per agent. */
  env: NodeJS.ProcessEnv;
  secrets: string[];
  sandbox: Sandbox;
  log: (line: string) => void;
  /** Adapters given by the caller instead of the installed CLIs (tests). */
  adapters?: Partial<Record<AgentKind, AgentAdapter>>;
}

export interface RunAgents {
  registry: AgentRegistry;
  /** Environment of verify commands and hooks: runner basics and the names in verify-env. */
  commandEnv: NodeJS.ProcessEnv;
}

export async function agentsForRun(s: RunAgentsSetup): Promise<RunAgents> {
  const adapters =
    s.adapters ??
    (await buildCliAdapters({
      kinds: s.kinds,
      agentConfig: s.agentConfig,
      agentVersions: s.agentVersions,
      ...(s.cacheClis ? { installCache: actionsInstallCache(s.env, s.log) } : {}),
      toolCacheDir: path.join(s.env.RUNNER_TOOL_CACHE || s.env.RUNNER_TEMP || tmpdir(), 'pr-review-loop-clis'),
      baseEnv: s.env,
      secretValues: s.secrets,
      log: s.log,
      agentEnvNames: s.agentEnvNames,
      sandbox: s.sandbox,
    }));
  const registry = createRegistry({
    ...(s.agentCommand ? { agentCommand: s.agentCommand } : {}),
    baseEnv: agentEnv(s.env, {}, s.secrets, agentAllowlist('command', s.agentEnvNames)),
    secretValues: s.secrets,
    adapters,
    sandbox: s.sandbox,
  });
  for (const kind of s.kinds) registry.get(kind);
  return { registry, commandEnv: agentEnv(s.env, {}, s.secrets, commandAllowlist(s.verifyEnvNames)) };
}
