// Runs one role through the registry and records it as an AgentRun for the report.
import type * as z from 'zod';
import type { AgentRegistry } from '../agents/registry.js';
import { runRole, type RoleOutcome } from '../agents/run-role.js';
import { NO_USAGE, type AgentSpec, type Invocation, type Role } from '../agents/types.js';
import type { AgentRun } from '../review/types.js';

export interface RoleRequest {
  role: Role;
  name: string;
  spec: AgentSpec;
  prompt: string;
  cwd: string;
  contextDir: string;
  stateDir: string;
  round: number;
  timeoutMs: number;
  sessionId?: string;
}

export async function runAgentRole<T>(
  registry: AgentRegistry,
  req: RoleRequest,
  schema: z.ZodType<T>,
): Promise<{ outcome: RoleOutcome<T>; run: AgentRun }> {
  const started = Date.now();
  let outcome: RoleOutcome<T>;
  try {
    const adapter = registry.get(req.spec.agent);
    const inv: Invocation = {
      role: req.role,
      name: req.name,
      model: req.spec.model,
      prompt: req.prompt,
      cwd: req.cwd,
      contextDir: req.contextDir,
      stateDir: req.stateDir,
      round: req.round,
      timeoutMs: req.timeoutMs,
      ...(req.sessionId ? { sessionId: req.sessionId } : {}),
    };
    outcome = await runRole(adapter, inv, schema);
  } catch (e) {
    outcome = { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  const answer = outcome.answer;
  return {
    outcome,
    run: {
      name: req.name,
      role: req.role,
      agent: req.spec.agent,
      modelRequested: req.spec.model,
      modelReported: answer?.model ?? null,
      status: outcome.ok ? 'ok' : 'failed',
      error: outcome.ok ? null : outcome.error,
      durationMs: answer?.durationMs ?? Date.now() - started,
      usage: answer?.usage ?? NO_USAGE,
    },
  };
}
