import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUsage, usageFile } from '../../src/agents/command-usage.js';
import { BudgetSpent, createBudget } from '../../src/budget/budget.js';
import { priceOf, priceTable } from '../../src/budget/prices.js';
import type { AgentRun } from '../../src/domain/agent-run.js';
import { shopAgent } from '../factories.js';

const call = (role: string, usage: AgentRun['usage'], model = 'gpt-5-codex'): AgentRun =>
  shopAgent({ role, name: role, modelRequested: model, modelReported: model, usage });

describe('the price table', () => {
  it('matches models like the model check: any case, any provider prefix; overrides win', () => {
    const prices = priceTable({ 'GPT-5-codex': { input: 2, output: 20 }, 'my-model': { input: 1, output: 1 } });
    expect(priceOf(prices, 'google/Gemini-2.5-Pro')).toEqual({ input: 1.25, output: 10 });
    expect(priceOf(prices, 'openai/gpt-5-codex')).toEqual({ input: 2, output: 20 });
    expect(priceOf(prices, 'my-model')).toEqual({ input: 1, output: 1 });
    expect(priceOf(prices, 'unknown-model')).toBeNull();
  });
});

describe('the budget', () => {
  it('adds tokens and cost per round, per role and in total: the cost a CLI reports, else its priced tokens', () => {
    const b = createBudget({}, priceTable());
    b.record(1, call('reviewer', { inputTokens: 1_000_000, outputTokens: 100_000, costUsd: null })); // 1.25 + 1.00
    b.record(1, call('reviewer', { inputTokens: 10, outputTokens: 10, costUsd: 0.5 }, 'claude-x'));
    b.record(2, call('fixer', { inputTokens: null, outputTokens: null, costUsd: null }, 'unknown'));
    const s = b.spending();
    expect(s.total).toEqual({ tokens: 1_100_020, costUsd: 2.75, calls: 3 });
    expect(s.byRound).toEqual({
      '1': { tokens: 1_100_020, costUsd: 2.75, calls: 2 },
      '2': { tokens: 0, costUsd: 0, calls: 1 },
    });
    expect(s.byRole.fixer).toEqual({ tokens: 0, costUsd: 0, calls: 1 });
    expect([s.unreportedTokens, s.unpricedCalls]).toEqual([1, 1]);
  });

  it('lets calls start until a limit is reached, then refuses every new one', () => {
    const b = createBudget({ maxTokens: 1000 }, priceTable());
    const reviewer = { role: 'reviewer', concurrent: 1 };
    b.beforeCall('reviewer-1', reviewer);
    b.record(1, call('reviewer', { inputTokens: 200, outputTokens: 99, costUsd: null }));
    expect(b.spentReason()).toBeNull();
    b.beforeCall('reviewer-1 again', reviewer);
    b.record(1, call('reviewer', { inputTokens: 700, outputTokens: 1, costUsd: null }));
    expect(b.spentReason()).toBe('the budget is spent: 1000 tokens used of max-tokens 1000');
    expect(() => b.beforeCall('the fixer call of round 2', { role: 'fixer', concurrent: 1 })).toThrow(BudgetSpent);
    expect(() => b.beforeCall('the fixer call of round 2', { role: 'fixer', concurrent: 1 })).toThrow(
      /the fixer call of round 2 was not started: the budget is spent/,
    );
  });

  it('does not start calls that would not fit: what their role spent on average, times the calls starting', () => {
    const b = createBudget({ maxTokens: 1000 }, priceTable());
    const reviewers = { role: 'reviewer', concurrent: 2 };
    // Nothing is known before the first calls: they start.
    b.beforeCall('reviewer-1', reviewers);
    b.record(1, call('reviewer', { inputTokens: 50, outputTokens: 50, costUsd: null }));
    b.record(1, call('reviewer', { inputTokens: 150, outputTokens: 50, costUsd: null }));
    // 700 left; two reviewers at 150 each fit.
    expect(b.spentReason(reviewers)).toBeNull();
    // The fixer's first call is expected to cost what calls of any role did (150): it fits.
    b.beforeCall('the fixer call of round 1', { role: 'fixer', concurrent: 1 });
    b.record(1, call('fixer', { inputTokens: 450, outputTokens: 0, costUsd: null }));
    // 250 left: one reviewer would fit, two would not.
    expect(b.spentReason({ role: 'reviewer', concurrent: 1 })).toBeNull();
    expect(b.spentReason(reviewers)).toBe(
      'the budget would not cover 2 reviewer calls: 150 tokens each expected (the average so far), 250 left of max-tokens 1000',
    );
    expect(() => b.beforeCall('the reviewer-1 call of round 2', reviewers)).toThrow(
      /was not started: the budget would not cover/,
    );
    // The fixer's own average (450) is what counts for it now.
    expect(b.spentReason({ role: 'fixer', concurrent: 1 })).toMatch(/would not cover a fixer call: 450 tokens each/);
  });

  it('judges a cost limit the same way', () => {
    const b = createBudget({ maxCostUsd: 1 }, priceTable());
    b.record(1, call('reviewer', { inputTokens: 0, outputTokens: 0, costUsd: 0.4 }));
    expect(b.spentReason({ role: 'reviewer', concurrent: 1 })).toBeNull();
    expect(b.spentReason({ role: 'reviewer', concurrent: 2 })).toBe(
      'the budget would not cover 2 reviewer calls: $0.4000 each expected (the average so far), $0.6000 left of max-cost-usd $1.00',
    );
  });

  it('gives each of the calls starting together its share of the cost left', () => {
    const b = createBudget({ maxCostUsd: 1 }, priceTable());
    expect(b.callBound(1)).toEqual({ maxCostUsd: 1 });
    b.record(1, call('reviewer', { inputTokens: 0, outputTokens: 0, costUsd: 0.4 }));
    expect(b.callBound(3).maxCostUsd).toBeCloseTo(0.2);
    expect(createBudget({ maxTokens: 5 }, priceTable()).callBound(2)).toEqual({});
  });
});

describe("the command agent's usage file", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'usage-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the numbers a command wrote, and nothing else', async () => {
    await writeFile(usageFile(dir), JSON.stringify({ inputTokens: 12, outputTokens: 3, costUsd: 'free', extra: 1 }));
    expect(await readUsage(dir)).toEqual({ inputTokens: 12, outputTokens: 3, costUsd: null });
  });

  it('follows no link and reads no large file: an agent next to the command could plant either', async () => {
    const secret = path.join(dir, 'secret.json');
    await writeFile(secret, JSON.stringify({ inputTokens: 1 }));
    await symlink(secret, usageFile(dir));
    expect(await readUsage(dir)).toEqual({ inputTokens: null, outputTokens: null, costUsd: null });
    await rm(usageFile(dir));
    await writeFile(usageFile(dir), `{"inputTokens": 1, "pad": "${'x'.repeat(5000)}"}`);
    expect((await readUsage(dir)).inputTokens).toBeNull();
  });
});
