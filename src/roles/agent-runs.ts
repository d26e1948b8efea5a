// What one call leaves for the reports when it was made twice (a session that could not be
// resumed, then a fresh one): one record whose time and usage add up.
import type { AgentRun } from '../domain/agent-run.js';
import type { RoleResult } from '../agents/run-role.js';

/** One record for a call made twice (a failed resume, then a fresh session): times and usage add up. */
export function mergeRuns(prev: AgentRun | null, next: AgentRun): AgentRun {
  if (!prev) return next;
  const add = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));
  return {
    ...next,
    durationMs: prev.durationMs + next.durationMs,
    usage: {
      inputTokens: add(prev.usage.inputTokens, next.usage.inputTokens),
      outputTokens: add(prev.usage.outputTokens, next.usage.outputTokens),
      costUsd: add(prev.usage.costUsd, next.usage.costUsd),
    },
  };
}

/**
 * A call that resumed a session and failed without an answer found the session gone (a CLI's
 * "No conversation found"): `fresh` calls again in a new session, and one record counts both.
 */
export async function freshIfResumeFailed<T>(
  sessionId: string | null,
  result: RoleResult<T>,
  fresh: () => Promise<RoleResult<T>>,
): Promise<RoleResult<T>> {
  if (!sessionId || result.outcome.ok || result.outcome.answer) return result;
  // Out of quota, or not authenticated, is no lost session: a fresh one would fail the same way.
  if (result.outcome.quota || result.outcome.auth) return result;
  const next = await fresh();
  return { ...next, run: mergeRuns(result.run, next.run) };
}
