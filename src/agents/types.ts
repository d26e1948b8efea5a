// The one interface every agent CLI adapter implements (docs/agents.md lists the CLIs).
import type { Usage } from '../domain/agent-run.js';
export const AGENT_KINDS = ['claude', 'codex', 'opencode', 'gemini', 'command'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

const ROLES = ['reviewer', 'analyzer', 'fixer', 'gate', 'confirm', 'answerer'] as const;
export type Role = (typeof ROLES)[number];

export interface AgentSpec {
  agent: AgentKind;
  model: string;
  /**
   * Tried in order when a call fails for quota, rate limit or overload (`a || b` in the role's
   * input); a fallback has none of its own.
   */
  fallbacks?: AgentSpec[];
}

export interface Invocation {
  role: Role;
  /** Role instance: reviewer-1 … reviewer-5, analyzer, fixer, gate, confirm, answerer. */
  name: string;
  model: string;
  prompt: string;
  /** The checkout the agent works in. */
  cwd: string;
  /** Folder with pr.json, files.json, diff.patch, threads.json, … for this role. */
  contextDir: string;
  /** A private folder the adapter may use as the CLI's state home. */
  stateDir: string;
  round: number;
  sessionId?: string;
  timeoutMs: number;
  /**
   * This call's share of what is left of max-cost-usd. CLIs with a spending switch stop there
   * (Claude Code's --max-budget-usd); the others are bounded by the timeout only.
   */
  maxCostUsd?: number;
}

export interface AgentAnswer {
  text: string;
  /** The model the CLI reports having used; null where the CLI does not say. */
  model: string | null;
  sessionId: string | null;
  usage: Usage;
  durationMs: number;
}

export interface AgentAdapter {
  readonly kind: AgentKind;
  run(inv: Invocation): Promise<AgentAnswer>;
}

/** A role failure with a message that names the CLI, the model and the cause. */
export class AgentError extends Error {
  constructor(
    message: string,
    readonly detail: {
      agent: AgentKind;
      model: string;
      stderrTail?: string;
      timedOut?: boolean;
      usage?: Usage;
      /** The CLI could not authenticate (a missing key, or one the provider refused). */
      unauthenticated?: boolean;
    },
  ) {
    super(message);
  }
}

export const NO_USAGE: Usage = { inputTokens: null, outputTokens: null, costUsd: null };
