// Every agent a run uses, ready before the first round: the pinned CLIs installed on demand
// (cli-adapters.ts), the `command` agent, each with its own environment allowlist, and the
// environment of verify commands and hooks. An agent kind that cannot run fails here, before
// anything is posted.
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Sandbox } from '../sandbox/sandbox.js';
import { guardAuthentication } from './auth-guard.js';
import { buildCliAdapters } from './cli-adapters.js';
import { agentEnv } from './env.js';
import { agentAllowlist, commandAllowlist } from './env-allowlist.js';
import { withheldToolchainVariables } from './toolchain-env.js';
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
  /** The setup-env input: the only secrets setup commands get (none of verify-env's). */
  setupEnvNames: readonly string[];
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
  /** Environment of setup commands: runner basics and the names in setup-env. */
  setupEnv: NodeJS.ProcessEnv;
}

export async function agentsForRun(s: RunAgentsSetup): Promise<RunAgents> {
  const adapters =
    s.adapters ??
    (await buildCliAdapters({
      kinds: s.kinds,
      agentConfig: s.agentConfig,
      agentVersions: s.agentVersions,
      ...(cacheUsable(s) ? { installCache: actionsInstallCache(s.env, s.log) } : {}),
      toolCacheDir: path.join(s.env.RUNNER_TOOL_CACHE || s.env.RUNNER_TEMP || tmpdir(), 'pr-review-loop-clis'),
      baseEnv: s.env,
      secretValues: s.secrets,
      log: s.log,
      agentEnvNames: s.agentEnvNames,
      sandbox: s.sandbox,
    }));
  // A CLI without a key is not started (auth-guard.ts); the command agent's key is its own business.
  const guarded = Object.fromEntries(
    Object.entries(adapters).map(([kind, a]) => [
      kind,
      a && kind !== 'command' ? guardAuthentication(a, s.env, s.agentConfig[kind]) : a,
    ]),
  );
  const registry = createRegistry({
    ...(s.agentCommand ? { agentCommand: s.agentCommand } : {}),
    baseEnv: agentEnv(s.env, {}, s.secrets, agentAllowlist('command', s.agentEnvNames)),
    secretValues: s.secrets,
    adapters: guarded,
    sandbox: s.sandbox,
    log: s.log,
  });
  for (const kind of s.kinds) registry.get(kind);
  const named = new Set([...s.verifyEnvNames, ...s.setupEnvNames, ...s.agentEnvNames]);
  const withheld = withheldToolchainVariables(s.env).filter((n) => !named.has(n));
  if (withheld.length) {
    s.log(
      `toolchain variables withheld from agents, setup, verify and hooks because their values carry a ` +
        `credential (name them in setup-env, verify-env or agent-env to pass them on): ${withheld.join(', ')}`,
    );
  }
  return {
    registry,
    commandEnv: agentEnv(s.env, {}, s.secrets, commandAllowlist(s.verifyEnvNames)),
    setupEnv: agentEnv(s.env, {}, s.secrets, commandAllowlist(s.setupEnvNames)),
  };
}

/**
 * The Actions cache, when asked for and safe: a call that runs as the action's own user (no
 * sandbox user) could read the job's cache token from the action's environment and save an entry
 * under a CLI's key, which every later run would restore and run as the action.
 */
export function cacheUsable(s: Pick<RunAgentsSetup, 'cacheClis' | 'sandbox' | 'log'>): boolean {
  if (!s.cacheClis) return false;
  if (s.sandbox.user !== null) return true;
  s.log(
    "cache-clis: not used: agents and verify commands run as the action's own user (no sandbox), " +
      'where they could read the cache token and plant an entry later runs would run',
  );
  return false;
}
