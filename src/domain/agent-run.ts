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
   * limit, overload): the run's model answered as their fallback. Time and usage count them all.
   */
  fellBackFrom?: { spec: string; kind: QuotaKind; detail: string }[];
}

export type QuotaKind = 'quota' | 'rate limit' | 'overloaded';

export interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
}
