// What one agent call leaves behind for the reports: who ran, on which model, how it went.

export type AgentStatus = 'ok' | 'failed' | 'skipped';

export interface AgentRun {
  name: string;
  role: string;
  agent: string;
  modelRequested: string;
  modelReported: string | null;
  status: AgentStatus;
  error: string | null;
  durationMs: number;
  usage: Usage;
  /**
   * The models asked before this one, in order, that could not take the call (quota, rate
   * limit, overload, a CLI that could not authenticate): the run's model answered as their
   * fallback. Time and usage count them all.
   */
  fellBackFrom?: { spec: string; kind: UnavailableKind; detail: string }[];
}

export type QuotaKind = 'quota' | 'rate limit' | 'overloaded';

/** Why a model could not take a call, so that its fallback is asked. */
type UnavailableKind = QuotaKind | 'not authenticated';

export interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
}
