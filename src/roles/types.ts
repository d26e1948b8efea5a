// What one agent call leaves behind for the reports: who ran, on which model, how it went.
import type { Usage } from '../agents/types.js';

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
}
