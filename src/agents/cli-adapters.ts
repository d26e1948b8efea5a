// Builds the real CLI adapters a run needs: each CLI comes from PATH, or is installed at
// its pinned (or `agent-versions`) version into the runner's tool cache.
import { createClaudeAdapter } from './claude.js';
import type { CliAdapterOptions } from './cli-common.js';
import { CLI_KINDS, type CliKind } from './cli-versions.js';
import { createCodexAdapter } from './codex.js';
import { createGeminiAdapter } from './gemini.js';
import { ensureCli } from './install.js';
import type { InstallCache } from './install-cache.js';
import { createOpencodeAdapter } from './opencode.js';
import type { AgentAdapter, AgentKind } from './types.js';
import { agentEnv } from './env.js';
import { agentAllowlist, envNamesReferencedBy } from './env-allowlist.js';
import type { Sandbox } from '../sandbox/sandbox.js';

const FACTORIES: Record<CliKind, (opts: CliAdapterOptions) => AgentAdapter> = {
  claude: createClaudeAdapter,
  codex: createCodexAdapter,
  opencode: createOpencodeAdapter,
  gemini: createGeminiAdapter,
};

export interface CliAdapterSetup {
  kinds: Iterable<AgentKind>;
  agentConfig: Record<string, Record<string, unknown>>;
  agentVersions: Partial<Record<AgentKind, string>>;
  toolCacheDir: string;
  /** Where installs are kept between runs; none: every missing CLI is installed with npm. */
  installCache?: InstallCache;
  baseEnv: NodeJS.ProcessEnv;
  secretValues: string[];
  log: (line: string) => void;
  /** Extra variable names every agent may see (the agent-env input). */
  agentEnvNames?: readonly string[];
  sandbox?: Sandbox;
}

export async function buildCliAdapters(setup: CliAdapterSetup): Promise<Partial<Record<AgentKind, AgentAdapter>>> {
  const adapters: Partial<Record<AgentKind, AgentAdapter>> = {};
  const wanted = [...new Set(setup.kinds)].filter((k): k is CliKind => (CLI_KINDS as readonly string[]).includes(k));
  for (const kind of wanted) {
    const version = setup.agentVersions[kind];
    const binPath = await ensureCli(kind, {
      toolCacheDir: setup.toolCacheDir,
      ...(setup.installCache ? { cache: setup.installCache } : {}),
      log: setup.log,
      ...(version ? { version } : {}),
      searchPath: setup.baseEnv.PATH ?? '',
    });
    const agentConfig = setup.agentConfig[kind];
    // Only what this CLI needs (env-allowlist.ts), plus variables its agent-config refers to.
    const allow = agentAllowlist(kind, [...(setup.agentEnvNames ?? []), ...envNamesReferencedBy(agentConfig)]);
    adapters[kind] = FACTORIES[kind]({
      binPath,
      baseEnv: agentEnv(setup.baseEnv, {}, setup.secretValues, allow),
      secretValues: setup.secretValues,
      ...(agentConfig ? { agentConfig } : {}),
      ...(setup.sandbox ? { sandbox: setup.sandbox } : {}),
      log: setup.log,
    });
  }
  return adapters;
}
