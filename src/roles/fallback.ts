// Fallback models: when a call fails because its model cannot take it (quota, rate limit,
// overload: agents/quota.ts) or its CLI cannot authenticate (a key a fork PR's run does not get:
// agents/credentials.ts), the role's next model is asked, and the report says which model
// answered and why. Each attempt is a call of its own for the budget. A reviewer's fallback that
// another reviewer of the round already runs is skipped: one model would count its own agreement
// twice.
import type { AgentSpec } from '../agents/types.js';
import { BudgetSpent } from '../budget/budget.js';
import type { AgentRun } from '../domain/agent-run.js';
import { mergeRuns } from './agent-runs.js';
import type { RoleOutcome } from '../agents/run-role.js';

/** `agent:model`, how a model is named in reports and in the panel. */
const specName = (s: AgentSpec): string => `${s.agent}:${s.model}`;

/**
 * The models a round's reviewers run: each name claimed by the reviewer that runs it. A fallback
 * is claimed when it is chosen, so two reviewers out of quota cannot fall back to the same model.
 */
export type ReviewerPanel = Map<string, string>;

export function reviewerPanel(reviewers: readonly AgentSpec[]): ReviewerPanel {
  return new Map(reviewers.map((spec, i) => [specName(spec), `reviewer-${i + 1}`]));
}

export interface Attempt<T> {
  outcome: RoleOutcome<T>;
  run: AgentRun;
}

/** Why the model of a failed call could not take it, when that is a reason to ask the next one. */
function unavailable<T>(outcome: RoleOutcome<T>) {
  return outcome.ok ? undefined : (outcome.quota ?? outcome.auth);
}

/**
 * Calls `spec`, then its fallbacks while each call fails for quota, rate limit, overload or
 * authentication.
 * `call(spec, first)` makes one attempt; `first` is false for a fallback (a fresh session).
 */
export async function withFallbacks<T>(
  spec: AgentSpec,
  who: { name: string; panel?: ReviewerPanel; log?: (line: string) => void },
  call: (spec: AgentSpec, first: boolean) => Promise<Attempt<T>>,
): Promise<Attempt<T>> {
  let result = await call(spec, true);
  const failed: NonNullable<AgentRun['fellBackFrom']> = [];
  let current = spec;
  for (const next of spec.fallbacks ?? []) {
    const why = unavailable(result.outcome);
    if (!why) break;
    // Once per model asked: a skipped fallback leaves the last answer standing.
    if (failed.at(-1)?.spec !== specName(current)) failed.push({ spec: specName(current), ...why });
    const holder = who.panel?.get(specName(next));
    if (holder !== undefined && holder !== who.name) {
      who.log?.(`${who.name}: fallback ${specName(next)} skipped: ${holder} already reviews with it`);
      continue;
    }
    who.panel?.set(specName(next), who.name);
    who.log?.(`${who.name}: ${specName(current)} failed (${why.kind}); asking ${specName(next)}`);
    let attempt: Attempt<T>;
    try {
      attempt = await call(next, false);
    } catch (e) {
      // A fallback the budget does not cover is not asked: the role failed, as without one.
      if (!(e instanceof BudgetSpent)) throw e;
      who.log?.(`${who.name}: fallback ${specName(next)} not asked: ${e.message}`);
      break;
    }
    result = { ...attempt, run: mergeRuns(result.run, attempt.run) };
    current = next;
  }
  const last = unavailable(result.outcome);
  if (failed.length === 0 && !last) return result;
  const run = failed.length > 0 ? { ...result.run, fellBackFrom: failed } : result.run;
  if (result.outcome.ok) {
    // The session is the fallback's: the next call asks the role's own model first, in a fresh one.
    const answer = { ...result.outcome.answer, sessionId: null };
    return { outcome: { ...result.outcome, answer }, run };
  }
  // Nothing answered: the error names every model asked and why each could not take the call.
  const lastAsked = last && failed.at(-1)?.spec !== specName(current) ? [{ spec: specName(current), ...last }] : [];
  const tried = [...failed, ...lastAsked];
  const note = `${tried.map((f) => `${f.spec}: ${f.kind}`).join('; ')}; no fallback left`;
  const error = `${result.outcome.error}\n(${note})`;
  return { outcome: { ...result.outcome, error }, run: { ...run, error } };
}
