// Which key variables authenticate each CLI, and when they say, before any call, that it has none
// (src/agents/credentials.ts): only when one is set but empty and none has a value; a variable
// that is not set at all, or agent-config that brings its own credential, says nothing.
import { describe, expect, it } from 'vitest';
import { emptyCredentials } from '../../src/agents/credentials.js';

const claude = { agent: 'claude' as const, model: 'claude-sonnet-4-5' };

describe('emptyCredentials', () => {
  it('names the variables a fork PR run leaves empty when none has a value', () => {
    expect(emptyCredentials(claude, { ANTHROPIC_API_KEY: '' })).toEqual(['ANTHROPIC_API_KEY']);
    expect(emptyCredentials(claude, { ANTHROPIC_API_KEY: ' ', CLAUDE_CODE_OAUTH_TOKEN: '' })).toEqual([
      'ANTHROPIC_API_KEY',
      'CLAUDE_CODE_OAUTH_TOKEN',
    ]);
  });

  it('says nothing when another of the CLI credentials has a value, or none is set', () => {
    expect(emptyCredentials(claude, { ANTHROPIC_API_KEY: '', CLAUDE_CODE_OAUTH_TOKEN: 'tok' })).toBeNull();
    expect(emptyCredentials(claude, { ANTHROPIC_API_KEY: '', AWS_ACCESS_KEY_ID: 'AKIA' })).toBeNull();
    expect(emptyCredentials(claude, {})).toBeNull();
    // A key agent-config brings (settings env, apiKeyHelper) is out of sight.
    expect(emptyCredentials(claude, { ANTHROPIC_API_KEY: '' }, { apiKeyHelper: 'print-key' })).toBeNull();
  });

  it("follows codex's model provider: its env_key, none for a provider without one", () => {
    const codex = { agent: 'codex' as const, model: 'gpt-5.5' };
    const own = { model_provider: 'gw', model_providers: { gw: { env_key: 'GW_KEY' } } };
    expect(emptyCredentials(codex, { OPENAI_API_KEY: '' })).toEqual(['OPENAI_API_KEY']);
    expect(emptyCredentials(codex, { OPENAI_API_KEY: '', GW_KEY: '' }, own)).toEqual(['GW_KEY']);
    expect(emptyCredentials(codex, { OPENAI_API_KEY: '', GW_KEY: 'k' }, own)).toBeNull();
    expect(emptyCredentials(codex, { OPENAI_API_KEY: '' }, { model_provider: 'local' })).toBeNull();
  });

  it("follows OpenCode's provider: the model's prefix, or the {env:NAME} of a provider in agent-config", () => {
    const gemini = { agent: 'opencode' as const, model: 'google/gemini-2.5-pro' };
    expect(emptyCredentials(gemini, { GOOGLE_GENERATIVE_AI_API_KEY: '' })).toEqual(['GOOGLE_GENERATIVE_AI_API_KEY']);
    expect(emptyCredentials(gemini, { GOOGLE_GENERATIVE_AI_API_KEY: '', GEMINI_API_KEY: 'k' })).toBeNull();
    const fake = { agent: 'opencode' as const, model: 'fake/fake-model' };
    const config = { provider: { fake: { options: { apiKey: '{env:FAKE_API_KEY}' } } } };
    expect(emptyCredentials(fake, { FAKE_API_KEY: '' }, config)).toEqual(['FAKE_API_KEY']);
    expect(emptyCredentials(fake, { FAKE_API_KEY: '' })).toBeNull();
  });

  it('never judges the command agent: its key is whatever its command reads', () => {
    expect(emptyCredentials({ agent: 'command', model: 'm' }, { ANTHROPIC_API_KEY: '' })).toBeNull();
  });
});
