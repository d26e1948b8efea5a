// The model that answered must be the model asked for (docs/agents.md), give or take a
// date or version suffix and a provider prefix.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkModel, modelMatches, runRole } from '../../src/agents/run-role.js';
import { NO_USAGE } from '../../src/agents/types.js';
import type { AgentAdapter, Invocation } from '../../src/agents/types.js';

describe('modelMatches', () => {
  it.each([
    ['claude-sonnet-4-5', 'claude-sonnet-4-5', true],
    ['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929', true],
    ['claude-sonnet-4-5', 'claude-sonnet-4-5@20250929', true],
    ['claude-sonnet-4-5', 'claude-sonnet-4-5-latest', true],
    ['claude-3-5-sonnet-latest', 'claude-3-5-sonnet-20241022', true],
    ['gpt-5', 'gpt-5-2025-08-07', true],
    ['gpt-4', 'gpt-4-0613', true],
    ['gemini-1.5-pro', 'gemini-1.5-pro-001', true],
    ['titan-text', 'titan-text-v1', true],
    ['claude-3-5-sonnet-20240620', 'claude-3-5-sonnet-20240620-v1:0', true],
    ['anthropic/claude-sonnet-4-5', 'claude-sonnet-4-5-20250929', true],
    ['google/gemini-2.5-pro', 'gemini-2.5-pro', true],
    ['gemini-2.5-pro', 'openrouter/google/gemini-2.5-pro', true],
    ['Claude-Sonnet-4-5', 'claude-sonnet-4-5', true],
    ['claude-opus-4-1', 'claude-opus-4-8', false],
    ['claude-opus-4', 'claude-opus-4-1', false],
    ['claude-sonnet-4-5', 'claude-sonnet-4', false],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5', false],
    ['gpt-5', 'gpt-5-mini', false],
    ['gpt-5', 'gpt-5-codex', false],
    ['gemini-2.5-pro', 'gemini-2.5-pro-preview', false],
    ['gpt-5', '', false],
  ])('%s answered by %s → %s', (requested, reported, expected) => {
    expect(modelMatches(requested, reported)).toBe(expected);
  });

  it('does not apply when the CLI reports no model', () => {
    expect(checkModel('m', null)).toEqual({ status: 'not-reported', requested: 'm', reported: null });
    expect(checkModel('m', 'm-20250101').status).toBe('match');
    expect(checkModel('m', 'n').status).toBe('mismatch');
  });
});

describe('runRole model check', () => {
  const inv: Invocation = {
    role: 'gate',
    name: 'gate',
    model: 'claude-opus-4-1',
    prompt: '',
    cwd: '/',
    contextDir: '/',
    stateDir: '/',
    round: 1,
    timeoutMs: 1000,
  };
  const answering = (model: string | null): AgentAdapter => ({
    kind: 'claude',
    run: async () => ({ text: 'BEGIN_JSON {"ok":1} END_JSON', model, sessionId: 's', usage: NO_USAGE, durationMs: 5 }),
  });
  const schema = z.object({ ok: z.number() });

  it('fails the role on a remapped model and says what answered', async () => {
    const out = await runRole(answering('claude-opus-4-8'), inv, schema);
    expect(out).toMatchObject({
      ok: false,
      error: 'claude agent (gate, model claude-opus-4-1): asked for claude-opus-4-1, answered by claude-opus-4-8',
      model: { status: 'mismatch' },
    });
  });

  it('accepts a dated answer and reports the match', async () => {
    const out = await runRole(answering('claude-opus-4-1-20250805'), inv, schema);
    expect(out).toMatchObject({ ok: true, value: { ok: 1 }, model: { status: 'match' } });
  });

  it('turns a plain Error from an adapter into ok:false naming the agent', async () => {
    const broken: AgentAdapter = { kind: 'codex', run: async () => Promise.reject(new Error('boom')) };
    expect(await runRole(broken, inv, schema)).toEqual({
      ok: false,
      error: 'codex agent (gate, model claude-opus-4-1): boom',
    });
  });
});
