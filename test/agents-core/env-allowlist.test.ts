import { describe, expect, it } from 'vitest';
import { agentEnv } from '../../src/agents/env.js';
import { agentAllowlist, commandAllowlist, envNamesReferencedBy, isAllowed } from '../../src/agents/env-allowlist.js';

const STEP_ENV = {
  PATH: '/usr/bin',
  LANG: 'C.UTF-8',
  LC_ALL: 'C',
  HTTPS_PROXY: 'http://proxy:3128',
  ANTHROPIC_API_KEY: 'sk-ant-x',
  OPENAI_API_KEY: 'sk-openai-x',
  GEMINI_API_KEY: 'gem-x',
  AWS_SECRET_ACCESS_KEY: 'aws-x',
  DEPLOY_KEY: 'deploy-x',
  NPM_TOKEN: 'npm-x',
  GITHUB_TOKEN: 'ghs_x',
  INPUT_GITHUB_TOKEN: 'ghs_x',
  MY_PROXY_KEY: 'custom-x',
};

describe('per-CLI allowlists', () => {
  it('gives each CLI its own provider variables and the runner basics, nothing else', () => {
    const claude = agentEnv(STEP_ENV, {}, [], agentAllowlist('claude'));
    expect(Object.keys(claude).sort()).toEqual([
      'ANTHROPIC_API_KEY',
      'AWS_SECRET_ACCESS_KEY',
      'HTTPS_PROXY',
      'LANG',
      'LC_ALL',
      'PATH',
    ]);
    const codex = agentEnv(STEP_ENV, {}, [], agentAllowlist('codex'));
    expect(Object.keys(codex).sort()).toEqual(['HTTPS_PROXY', 'LANG', 'LC_ALL', 'OPENAI_API_KEY', 'PATH']);
    const gemini = agentEnv(STEP_ENV, {}, [], agentAllowlist('gemini'));
    expect(Object.keys(gemini)).toContain('GEMINI_API_KEY');
    expect(Object.keys(gemini)).not.toContain('ANTHROPIC_API_KEY');
  });

  it('adds the names the workflow lists, but never a credential of GitHub or Actions', () => {
    const env = agentEnv(
      STEP_ENV,
      {},
      ['ghs_x'],
      agentAllowlist('command', ['MY_PROXY_KEY', 'GITHUB_TOKEN', 'INPUT_GITHUB_TOKEN']),
    );
    expect(env.MY_PROXY_KEY).toBe('custom-x');
    expect(env).not.toHaveProperty('GITHUB_TOKEN');
    expect(env).not.toHaveProperty('INPUT_GITHUB_TOKEN');
    expect(env).not.toHaveProperty('ANTHROPIC_API_KEY');
  });

  it('gives verify commands and hooks only what verify-env names', () => {
    const env = agentEnv(STEP_ENV, {}, [], commandAllowlist(['NPM_TOKEN']));
    expect(env.NPM_TOKEN).toBe('npm-x');
    for (const name of ['DEPLOY_KEY', 'ANTHROPIC_API_KEY', 'AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN'])
      expect(env).not.toHaveProperty(name);
  });

  it('matches prefixes only where a pattern ends in *', () => {
    expect(isAllowed('LC_TIME', ['LC_*'])).toBe(true);
    expect(isAllowed('LCX', ['LC_*'])).toBe(false);
    expect(isAllowed('PATHX', ['PATH'])).toBe(false);
  });
});

describe('variables an agent-config refers to', () => {
  it("finds Codex's env_key and env_http_headers and OpenCode's {env:NAME}", () => {
    const codex = {
      model_providers: { fake: { env_key: 'FAKE_API_KEY', env_http_headers: { 'X-Org': 'ORG_HEADER' } } },
    };
    const opencode = { provider: { p: { options: { apiKey: '{env:OC_KEY}', baseURL: 'http://x/{env:OC_HOST}' } } } };
    expect(envNamesReferencedBy(codex)).toEqual(['FAKE_API_KEY', 'ORG_HEADER']);
    expect(envNamesReferencedBy(opencode)).toEqual(['OC_HOST', 'OC_KEY']);
    expect(envNamesReferencedBy({ env_key: 'not a name; rm -rf /' })).toEqual([]);
  });
});
