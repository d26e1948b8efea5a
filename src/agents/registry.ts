// Which adapter runs each agent kind. The CLI adapters (claude, codex, opencode,
// gemini) are passed in by the caller; `command` is built here from agent-command.
import { createCommandAdapter } from './command.js';
import type { AgentAdapter, AgentKind } from './types.js';
import type { Sandbox } from '../sandbox/sandbox.js';

export interface RegistryOptions {
  /** The agent-command input; enables the `command` agent. */
  agentCommand?: string;
  baseEnv?: NodeJS.ProcessEnv;
  secretValues?: readonly string[];
  sandbox?: Sandbox;
  /** Where the command agent records a usage file it refused to read. */
  log?: (line: string) => void;
  adapters?: Partial<Record<AgentKind, AgentAdapter>>;
}

export interface AgentRegistry {
  /** The adapter for `kind`; throws "agent 'codex' is not available: …" when there is none. */
  get(kind: AgentKind): AgentAdapter;
  has(kind: AgentKind): boolean;
  /** Kinds with an adapter, in registration order. */
  kinds(): AgentKind[];
}

export function createRegistry(opts: RegistryOptions = {}): AgentRegistry {
  const adapters = new Map<AgentKind, AgentAdapter>();
  for (const [kind, adapter] of Object.entries(opts.adapters ?? {}) as [AgentKind, AgentAdapter | undefined][]) {
    if (!adapter) continue;
    if (adapter.kind !== kind) throw new Error(`adapter registered as '${kind}' says it is '${adapter.kind}'`);
    adapters.set(kind, adapter);
  }
  const command = opts.agentCommand?.trim();
  if (command && !adapters.has('command')) {
    adapters.set(
      'command',
      createCommandAdapter(command, {
        ...(opts.baseEnv ? { baseEnv: opts.baseEnv } : {}),
        ...(opts.secretValues ? { secretValues: opts.secretValues } : {}),
        ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
        ...(opts.log ? { log: opts.log } : {}),
      }),
    );
  }
  return {
    get(kind) {
      const adapter = adapters.get(kind);
      if (!adapter) throw new Error(`agent '${kind}' is not available: ${missingReason(kind)}`);
      return adapter;
    },
    has: (kind) => adapters.has(kind),
    kinds: () => [...adapters.keys()],
  };
}

function missingReason(kind: AgentKind): string {
  if (kind === 'command') return 'set the agent-command input to a command line (prompt on stdin, answer on stdout)';
  return `no adapter is registered for it in this build`;
}
