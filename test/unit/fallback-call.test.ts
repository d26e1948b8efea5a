// A role's fallback chain through callRole with a real registry and budget: every attempt is a
// call for the budget, only a quota, rate-limit or overload failure moves on to the next model,
// and the record names the model that answered and why.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reviewerResultSchema } from '../../src/agents/envelope.js';
import { createRegistry } from '../../src/agents/registry.js';
import { AgentError, type AgentAdapter, type AgentSpec, type Invocation } from '../../src/agents/types.js';
import { createBudget } from '../../src/budget/budget.js';
import { priceTable } from '../../src/budget/prices.js';
import { callRole, type RoleEnv } from '../../src/roles/call.js';
import { reviewerPanel } from '../../src/roles/fallback.js';
import { loadPrompts } from '../../src/roles/prompts.js';
import { prContext, PROMPTS_URL } from '../factories.js';

const ANSWER = 'BEGIN_JSON\n{"conclusion":"approve","findings":[],"fullReport":"fine"}\nEND_JSON';

/** Fails for the models in `failing` with their message; answers for any other. */
function adapter(calls: Invocation[], failing: Record<string, string>): AgentAdapter {
  return {
    kind: 'claude',
    async run(inv) {
      calls.push(inv);
      const usage = { inputTokens: 10, outputTokens: 1, costUsd: 0.01 };
      const message = failing[inv.model];
      const who = `claude agent (${inv.name}, model ${inv.model})`;
      const detail = { agent: 'claude' as const, model: inv.model, usage };
      if (message) throw new AgentError(`${who} reported an error: ${message}`, detail);
      return { text: ANSWER, model: inv.model, sessionId: `s-${inv.model}`, usage, durationMs: 5 };
    },
  };
}

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'fallback-call-'));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

type Extra = { panel?: ReturnType<typeof reviewerPanel>; maxTokens?: number };
async function call(spec: AgentSpec, failing: Record<string, string>, { maxTokens, ...extra }: Extra = {}) {
  const calls: Invocation[] = [];
  const budget = createBudget(maxTokens ? { maxTokens } : {}, priceTable());
  const env: RoleEnv = {
    registry: createRegistry({ adapters: { claude: adapter(calls, failing) } }),
    prompts: await loadPrompts(PROMPTS_URL),
    workDir: scratch,
    scratchDir: scratch,
    timeoutMs: 10_000,
    budget,
  };
  const result = await callRole(env, {
    role: 'reviewer',
    name: 'reviewer-1',
    spec,
    ctx: prContext(),
    round: 1,
    data: { pr: {}, files: [], diff: '', reviewState: {} },
    values: { laterRound: '', ownEarlier: '', answerFormat: '', largeDiff: '' },
    schema: reviewerResultSchema,
    sessionId: 'old',
    ...extra,
  });
  return { result, calls, spent: budget.spending().total };
}

const chain: AgentSpec = {
  agent: 'claude',
  model: 'a',
  fallbacks: [
    { agent: 'claude', model: 'b' },
    { agent: 'claude', model: 'c' },
  ],
};

describe('callRole with fallbacks', () => {
  it('asks the next model after a quota failure, counts every attempt, and says why', async () => {
    const { result, calls, spent } = await call(chain, { a: 'API Error: Request rejected (429) · slow down' });
    expect(calls.map((c) => [c.model, c.sessionId ?? null])).toEqual([
      ['a', 'old'],
      ['b', null],
    ]);
    expect(result.outcome.ok).toBe(true);
    expect(result.run.modelRequested).toBe('b');
    expect(result.run.fellBackFrom).toEqual([
      { spec: 'claude:a', kind: 'rate limit', detail: expect.stringContaining('Request rejected (429)') },
    ]);
    expect(result.run.usage.costUsd).toBeCloseTo(0.02);
    // The session is the fallback's: the role's own model must not be handed it next time.
    expect(result.outcome.answer?.sessionId).toBeNull();
    expect(spent.calls).toBe(2);
  });

  it('does not fall back on any other failure', async () => {
    const { result, calls } = await call(chain, { a: 'Invalid tool input' });
    expect(calls.map((c) => c.model)).toEqual(['a']);
    expect(result.outcome.ok).toBe(false);
    expect(result.run.fellBackFrom).toBeUndefined();
  });

  it('skips a fallback another reviewer runs, and names every reason when none is left', async () => {
    const panel = reviewerPanel([
      { agent: 'claude', model: 'a' },
      { agent: 'claude', model: 'b' },
    ]);
    const failing = { a: 'API Error: 529 Overloaded.', c: 'You have exhausted your daily quota on this model.' };
    const { result, calls, spent } = await call(chain, failing, { panel });
    expect(calls.map((c) => c.model)).toEqual(['a', 'c']);
    expect(result.outcome.ok).toBe(false);
    if (result.outcome.ok) return;
    expect(result.outcome.error).toContain('(claude:a: overloaded; claude:c: quota; no fallback left)');
    expect(spent.calls).toBe(2);
  });

  it('does not ask a fallback the budget would not cover; the role fails as without one', async () => {
    // The first call spends 11 of 15 tokens: another call of that size does not fit.
    const { result, calls, spent } = await call(chain, { a: 'API Error: Request rejected (429)' }, { maxTokens: 15 });
    expect(calls.map((c) => c.model)).toEqual(['a']);
    expect(result.outcome.ok).toBe(false);
    if (result.outcome.ok) return;
    expect(result.outcome.error).toContain('(claude:a: rate limit; no fallback left)');
    expect(spent.calls).toBe(1);
  });
});
