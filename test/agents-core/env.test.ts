// The agent environment: no GitHub or Actions credential, runtime handle or
// command file reaches a child, even when the parent has them all.
import { describe, expect, it } from 'vitest';
import { agentEnv, isForbiddenEnvName, scrubbedNames } from '../../src/agents/env.js';
import { runProcess } from '../../src/process/process.js';
import { NODE, fake } from './helpers.js';

const FORBIDDEN: Record<string, string> = {
  GITHUB_TOKEN: 'ghs_aaaaaaaaaaaaaaaaaaaa',
  GH_TOKEN: 'ghp_bbbbbbbbbbbbbbbbbbbb',
  GITHUB_PAT: 'github_pat_cccccccccccc',
  'INPUT_GITHUB-TOKEN': 'ghs_dddddddddddddddddd',
  INPUT_REVIEWERS: 'claude:claude-sonnet-4-5',
  ACTIONS_RUNTIME_TOKEN: 'rt-eeeeeeee',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'idt-ffffffff',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions.example/',
  ACTIONS_RUNTIME_URL: 'https://pipelines.example/',
  ACTIONS_CACHE_URL: 'https://cache.example/',
  ACTIONS_RESULTS_URL: 'https://results.example/',
  GITHUB_STATE: '/tmp/state',
  GITHUB_OUTPUT: '/tmp/output',
  GITHUB_ENV: '/tmp/env',
  GITHUB_PATH: '/tmp/path',
  GITHUB_STEP_SUMMARY: '/tmp/summary',
  GITHUB_APP_PRIVATE_KEY: '-----BEGIN KEY-----',
  GH_ENTERPRISE_SECRET: 'sss',
  github_token: 'lower-case-too',
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'http.extraheader',
  GIT_CONFIG_VALUE_0: 'AUTHORIZATION: basic xyz',
  GIT_ASKPASS: '/usr/bin/askpass',
  SSH_AUTH_SOCK: '/tmp/agent.sock',
};

const KEPT: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  LANG: 'C.UTF-8',
  ANTHROPIC_API_KEY: 'sk-ant-provider',
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999',
  OPENAI_API_KEY: 'sk-openai',
  GEMINI_API_KEY: 'gem',
  GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9998',
  GITHUB_REPOSITORY: 'octo/repo',
  GITHUB_SHA: 'abc123',
  RUNNER_TEMP: '/tmp/runner',
  ACTIONS_STEP_DEBUG: 'true',
};

describe('agentEnv', () => {
  it('drops every forbidden variable and keeps provider settings', () => {
    const env = agentEnv({ ...FORBIDDEN, ...KEPT }, { REVIEW_LOOP_ROLE: 'reviewer' });
    for (const name of Object.keys(FORBIDDEN)) expect(env, name).not.toHaveProperty([name]);
    expect(env).toMatchObject({ ...KEPT, REVIEW_LOOP_ROLE: 'reviewer' });
  });

  it('drops a variable whose value is a known secret, whatever its name', () => {
    const env = agentEnv({ MY_WEIRD_VAR: 'ghs_secret_value', OTHER: 'x', EMPTY: '' }, {}, ['ghs_secret_value', '']);
    expect(env).toEqual({ OTHER: 'x', EMPTY: '' });
  });

  it('lets our own extra variables override inherited ones', () => {
    expect(agentEnv({ HOME: '/home/runner' }, { HOME: '/tmp/state' }).HOME).toBe('/tmp/state');
  });

  it('lists the removed names, sorted, without values', () => {
    const names = scrubbedNames({ ...KEPT, GITHUB_TOKEN: 't', INPUT_PR: '1', ODD: 'tok' }, ['tok']);
    expect(names).toEqual(['GITHUB_TOKEN', 'INPUT_PR', 'ODD']);
  });

  it.each([
    ['GITHUB_TOKEN', true],
    ['Github_Enterprise_Token', true],
    ['GH_HOST_KEY', true],
    ['INPUT_AGENT-COMMAND', true],
    ['ACTIONS_CACHE_SECRET', true],
    ['GIT_CONFIG_GLOBAL', true],
    ['GITHUB_WORKSPACE', false],
    ['GITHUB_EVENT_NAME', false],
    ['ANTHROPIC_API_KEY', false],
    ['OPENAI_BASE_URL', false],
    ['HOME', false],
  ])('isForbiddenEnvName(%s) = %s', (name, forbidden) => {
    expect(isForbiddenEnvName(name)).toBe(forbidden);
  });

  it('a real child sees none of the forbidden variables', async () => {
    const parentEnv = { ...process.env, ...FORBIDDEN, ...KEPT, ODD_COPY: FORBIDDEN.GITHUB_TOKEN! };
    const res = await runProcess({
      command: NODE,
      args: [fake('dump-env.mjs')],
      cwd: process.cwd(),
      env: agentEnv(parentEnv, { REVIEW_LOOP_ROUND: '2' }, [FORBIDDEN.GITHUB_TOKEN!]),
      timeoutMs: 5_000,
    });
    expect(res.exitCode).toBe(0);
    const seen = JSON.parse(res.stdout) as Record<string, string>;
    const leaked = Object.keys(seen).filter((n) => isForbiddenEnvName(n) || n in FORBIDDEN || n === 'ODD_COPY');
    expect(leaked).toEqual([]);
    expect(Object.values(seen)).not.toContain(FORBIDDEN.GITHUB_TOKEN);
    expect(seen).toMatchObject({ ANTHROPIC_API_KEY: 'sk-ant-provider', REVIEW_LOOP_ROUND: '2' });
  });
});
