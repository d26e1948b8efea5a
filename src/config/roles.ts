// The agent roles (reviewers, analyzer, fixer, gate) resolved from their inputs, and the
// checks that span several inputs.
import type * as z from 'zod';
import type { AgentSpec } from '../agents/types.js';
import { DEFAULT_MODELS, isAgentKind, type AgentRef } from './agent-specs.js';
import { PRICED_MODELS, priceOf, priceTable, type Price } from '../budget/prices.js';
import { example } from './errors.js';
import { MODEL_PRICES_EXAMPLE } from './model-prices.js';
import { sameModel } from './same-model.js';

/** The parsed inputs these functions read; loose because crossCheck also sees aborted values. */
export interface Loose {
  agent?: unknown;
  'agent-command'?: unknown;
  reviewers?: unknown;
  analyzer?: unknown;
  fixer?: unknown;
  'gate-reviewer'?: unknown;
  'max-cost-usd'?: unknown;
  'model-prices'?: unknown;
}

export interface Roles {
  reviewers: AgentSpec[];
  analyzer: AgentSpec;
  fixer: AgentSpec;
  gate?: AgentSpec | undefined;
}

/**
 * Entries with the input `agent` filled in where only a model is named, and the defaults of
 * the action (one reviewer; analyzer and fixer = the first reviewer). Also called on partly
 * invalid values (see crossCheck), hence the guards.
 */
export function roles(o: Loose): Roles {
  const agent = isAgentKind(o.agent) ? o.agent : 'claude';
  const isRef = (v: unknown): v is AgentRef => typeof v === 'object' && v !== null && 'model' in v;
  const one = (ref: AgentRef): AgentSpec => ({ agent: ref.agent ?? agent, model: ref.model });
  const spec = (ref: unknown): AgentSpec | undefined => {
    if (!isRef(ref)) return undefined;
    const fallbacks = Array.isArray(ref.fallbacks) ? ref.fallbacks.filter(isRef).map(one) : [];
    return fallbacks.length > 0 ? { ...one(ref), fallbacks } : one(ref);
  };
  const given = Array.isArray(o.reviewers) ? o.reviewers.filter(isRef) : [];
  const reviewers = (given.length > 0 ? given : [{ model: DEFAULT_MODELS[agent] }]).map((r) => spec(r)!);
  const first = reviewers[0]!;
  return {
    reviewers,
    analyzer: spec(o.analyzer) ?? first,
    fixer: spec(o.fixer) ?? first,
    gate: spec(o['gate-reviewer']),
  };
}

// Runs even when single fields failed (zod then passes their values as aborted), so every
// problem is reported at once.
export function crossCheck(o: Loose, ctx: z.RefinementCtx): void {
  const r = roles(o);
  const roleUses: [string, AgentSpec | undefined][] = [
    ...r.reviewers.map((s): [string, AgentSpec] => ['reviewers uses', s]),
    ['analyzer uses', r.analyzer],
    ['fixer uses', r.fixer],
    ['gate-reviewer uses', r.gate],
  ];
  // A fallback runs like the model before it: it needs the same command and price.
  const uses = roleUses.flatMap(([what, s]) => [
    [what, s] as [string, AgentSpec | undefined],
    ...(s?.fallbacks ?? []).map((f): [string, AgentSpec] => [what, f]),
  ]);
  const user = o.agent === 'command' ? 'agent is' : uses.find(([, s]) => s?.agent === 'command')?.[0];
  if (user && typeof o['agent-command'] !== 'string') {
    const message = `is required when ${user} "command". Example: agent-command: node .github/review-agent.mjs`;
    ctx.addIssue({ code: 'custom', path: ['agent-command'], message });
  }
  if (typeof o['max-cost-usd'] === 'number') unpricedModels(uses, o['model-prices'], ctx);
  // The gate is a second opinion on the fix, so none of its models may be one the fix came from,
  // through any CLI (same-model.ts).
  const fixers = [r.fixer, ...(r.fixer.fallbacks ?? [])];
  const same = r.gate && [r.gate, ...(r.gate.fallbacks ?? [])].find((g) => fixers.some((f) => sameModel(f, g)));
  if (same) {
    const message =
      `must differ from the fixer's models (${same.agent}:${same.model} is one). ` +
      'Example: gate-reviewer: codex:gpt-5-codex';
    ctx.addIssue({ code: 'custom', path: ['gate-reviewer'], message });
  }
}

/**
 * A cost limit needs each role's cost: Claude Code reports it; for the other CLIs, and for a
 * `command` agent, the model must have a price (the built-in table or model-prices).
 */
function unpricedModels(uses: [string, AgentSpec | undefined][], overrides: unknown, ctx: z.RefinementCtx): void {
  const given = typeof overrides === 'object' && overrides !== null ? (overrides as Record<string, Price>) : {};
  const prices = priceTable(given);
  const missing = new Set<string>();
  for (const [, spec] of uses) {
    if (spec && spec.agent !== 'claude' && !priceOf(prices, spec.model)) missing.add(spec.model);
  }
  for (const model of missing) {
    const ex = example('model-prices', MODEL_PRICES_EXAMPLE.replace('my-model', model));
    const message =
      `needs a price for model "${model}": its CLI reports tokens but not cost, and the price table does not ` +
      `know it (known: ${PRICED_MODELS.join(', ')}). Example: ${ex}`;
    ctx.addIssue({ code: 'custom', path: ['max-cost-usd'], message });
  }
}
