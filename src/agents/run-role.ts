// One role invocation end to end: run the adapter, check the model it reports
// (the one asked for), parse the envelope. Never throws: every failure becomes a message
// the report can show.

import type * as z from 'zod';
import { parseEnvelope } from './envelope.js';
import { failureDetail } from './failure.js';
import { quotaFailure, type QuotaFailure } from './quota.js';
import { AgentError } from './types.js';
import type { AgentAdapter, AgentAnswer, Invocation } from './types.js';
import type { AgentRun, Usage } from '../domain/agent-run.js';

export type ModelCheck =
  | { status: 'match'; requested: string; reported: string }
  | { status: 'mismatch'; requested: string; reported: string }
  /** The CLI does not say which model answered (the `command` agent). */
  | { status: 'not-reported'; requested: string; reported: null };

// A date or version tail that names the same model: -20250929, -2025-09-29,
// @20250929, -latest, -v1, -v1:0, -001, -0613. One or more, in any order.
const SAME_MODEL_SUFFIX = /^(?:[-@](?:\d{8}|\d{4}-\d{2}-\d{2}|\d{3,4}|latest|v\d+(?:[.:]\d+)*))+$/;

/** Lower case, without a provider prefix (`anthropic/`, `openrouter/google/`). */
function normalizeModel(name: string): string {
  const n = name.trim().toLowerCase();
  return n.slice(n.lastIndexOf('/') + 1);
}

/**
 * True when `reported` is `requested`, or `requested` plus a date/version suffix.
 * A `-latest` alias asked for may come back as any dated snapshot of the same name.
 */
export function modelMatches(requested: string, reported: string): boolean {
  const want = normalizeModel(requested);
  const got = normalizeModel(reported);
  if (want === '' || got === '') return false;
  if (want === got) return true;
  const base = want.endsWith('-latest') ? want.slice(0, -'-latest'.length) : want;
  return got.startsWith(base) && SAME_MODEL_SUFFIX.test(got.slice(base.length));
}

export function checkModel(requested: string, reported: string | null): ModelCheck {
  if (reported === null || reported.trim() === '') return { status: 'not-reported', requested, reported: null };
  return { status: modelMatches(requested, reported) ? 'match' : 'mismatch', requested, reported };
}

export async function runRole<T>(
  adapter: AgentAdapter,
  inv: Invocation,
  schema: z.ZodType<T>,
): Promise<RoleOutcome<T>> {
  const who = `${adapter.kind} agent (${inv.name}, model ${inv.model})`;
  let answer: AgentAnswer;
  try {
    answer = await adapter.run(inv);
  } catch (e) {
    // AgentError messages already name the agent, the role instance and the model.
    const error = e instanceof AgentError ? e.message : `${who}: ${e instanceof Error ? e.message : String(e)}`;
    // Only a call without an answer is read for a quota failure (quota.ts). A CLI that could not
    // authenticate says so itself (its adapter marks the error): no model failed, so the role's
    // fallback is asked as for a quota.
    const auth =
      e instanceof AgentError && e.detail.unauthenticated
        ? { kind: 'not authenticated' as const, detail: failureDetail(error) }
        : undefined;
    const quota = auth ? undefined : quotaFailure(error);
    const usage = e instanceof AgentError ? e.detail.usage : undefined;
    return { ok: false, error, ...(usage ? { usage } : {}), ...(quota ? { quota } : {}), ...(auth ? { auth } : {}) };
  }
  const model = checkModel(inv.model, answer.model);
  if (model.status === 'mismatch') {
    return { ok: false, error: `${who}: asked for ${model.requested}, answered by ${model.reported}`, answer, model };
  }
  try {
    const value = parseEnvelope(answer.text, schema);
    return { ok: true, value, answer, model };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, error: `${who}: ${message}`, answer, model };
  }
}

/** A call its CLI could not authenticate: `detail` is the line of the error that says so, shortened. */
interface AuthFailure {
  kind: 'not authenticated';
  detail: string;
}

export type RoleOutcome<T> =
  | { ok: true; value: T; answer: AgentAnswer; model: ModelCheck }
  | {
      ok: false;
      error: string;
      answer?: AgentAnswer;
      model?: ModelCheck;
      usage?: Usage;
      quota?: QuotaFailure;
      auth?: AuthFailure;
    };

/** What a role's call returns: its outcome, and the run it leaves for the reports. */
export interface RoleResult<T> {
  outcome: RoleOutcome<T>;
  run: AgentRun;
}
