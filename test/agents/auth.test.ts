// What each pinned CLI says when it cannot authenticate, and that the call is read as "not
// authenticated" (its adapter marks it, run-role.ts classifies it), so the role's fallback is asked
// instead of the failure counting as the model's. And the guard every CLI runs behind
// (agents/auth-guard.ts): a CLI whose key variables are set but empty, as a fork PR's run gets
// them, is not started; after a CLI's first refusal, it is not started again in the run.
import { describe, expect, it } from 'vitest';
import { guardAuthentication } from '../../src/agents/auth-guard.js';
import { createClaudeAdapter } from '../../src/agents/claude.js';
import { createCodexAdapter } from '../../src/agents/codex.js';
import { createGeminiAdapter } from '../../src/agents/gemini.js';
import { createOpencodeAdapter } from '../../src/agents/opencode.js';
import { reviewerResultSchema } from '../../src/agents/envelope.js';
import { runRole } from '../../src/agents/run-role.js';
import type { AgentAdapter } from '../../src/agents/types.js';
import { always, startFakeModelServer, type FakeModelServer } from '../fakes/model-server/index.js';
import { cachedCliBin } from './cli-cache.js';
import { codexFakeProvider, FAKE_MODEL_KEY, invocation, makeWorkspace, parentEnv, type Workspace } from './helpers.js';

/** A key the fake model server refuses with 401, as a provider refuses a revoked key. */
const REFUSED = 'sk-revoked-key';

type Make = (fake: FakeModelServer, ws: Workspace, bin: string) => AgentAdapter;

const OPENCODE_FAKE = {
  provider: {
    fake: {
      npm: '@ai-sdk/openai-compatible',
      name: 'Fake',
      options: { baseURL: '', apiKey: '{env:FAKE_API_KEY}' },
      models: { 'fake-model': { name: 'Fake' } },
    },
  },
};

const CLIS: Record<'claude' | 'codex' | 'gemini' | 'opencode', { model: string; make: Make }> = {
  claude: {
    model: 'claude-sonnet-4-5',
    make: (fake, ws, bin) =>
      createClaudeAdapter({
        binPath: bin,
        baseEnv: parentEnv(ws, {
          ANTHROPIC_BASE_URL: fake.url,
          ANTHROPIC_API_KEY: REFUSED,
          CLAUDE_CODE_MAX_RETRIES: '0',
        }),
      }),
  },
  codex: {
    model: 'gpt-5.5',
    make: (fake, ws, bin) =>
      createCodexAdapter({
        binPath: bin,
        baseEnv: parentEnv(ws, { FAKE_API_KEY: REFUSED }),
        agentConfig: codexFakeProvider(fake.url),
      }),
  },
  gemini: {
    model: 'gemini-2.5-pro',
    make: (fake, ws, bin) =>
      createGeminiAdapter({
        binPath: bin,
        baseEnv: parentEnv(ws, {
          GOOGLE_GEMINI_BASE_URL: fake.url,
          GEMINI_API_KEY: REFUSED,
          GEMINI_CLI_NO_RELAUNCH: 'true',
        }),
      }),
  },
  opencode: {
    model: 'fake/fake-model',
    make: (fake, ws, bin) => {
      const config = structuredClone(OPENCODE_FAKE);
      config.provider.fake.options.baseURL = `${fake.url}/v1`;
      return createOpencodeAdapter({
        binPath: bin,
        baseEnv: parentEnv(ws, { FAKE_API_KEY: REFUSED }),
        agentConfig: config,
      });
    },
  },
};

describe('a key the provider refuses, as each CLI reports it', () => {
  for (const [kind, cli] of Object.entries(CLIS)) {
    it(`${kind}: read as not authenticated, not as a quota or a model failure`, async () => {
      const fake = await startFakeModelServer({ apiKey: FAKE_MODEL_KEY, script: always('unreachable') });
      const ws = makeWorkspace(`auth-${kind}`);
      try {
        const adapter = cli.make(fake, ws, await cachedCliBin(kind as 'claude'));
        const inv = invocation(ws, { role: 'reviewer', model: cli.model, timeoutMs: 60_000 });
        const outcome = await runRole(adapter, inv, reviewerResultSchema);
        expect(outcome.ok).toBe(false);
        if (outcome.ok) return;
        expect(outcome.auth?.kind, outcome.error).toBe('not authenticated');
        expect(outcome.auth?.detail).toMatch(/not authenticated/);
        expect(outcome.quota).toBeUndefined();
        // The CLI gave up by itself, at the refusal, not at our time limit.
        expect(outcome.error).not.toMatch(/timed out/);
        expect(fake.requests.length).toBeGreaterThan(0);
        expect(fake.requests.every((q) => 'error' in q.reply && q.reply.error === 401)).toBe(true);
      } finally {
        await fake.close();
        ws.cleanup();
      }
    }, 90_000);
  }
});

describe('the guard in front of each CLI', () => {
  it('does not start a CLI whose key is set but empty, and fails the call as not authenticated', async () => {
    const fake = await startFakeModelServer({ apiKey: FAKE_MODEL_KEY });
    const ws = makeWorkspace('auth-empty');
    try {
      const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: '' };
      const claude = createClaudeAdapter({ binPath: await cachedCliBin('claude'), baseEnv: parentEnv(ws, env) });
      const guarded = guardAuthentication(claude, env);
      const inv = invocation(ws, { role: 'reviewer', model: 'claude-sonnet-4-5' });
      const started = Date.now();
      const outcome = await runRole(guarded, inv, reviewerResultSchema);
      expect(!outcome.ok && outcome.auth?.detail).toMatch(/^was not started: ANTHROPIC_API_KEY is set but empty/);
      // Not started: no process, so no time spent and not one request.
      expect(Date.now() - started).toBeLessThan(500);
      expect(fake.requests).toEqual([]);
    } finally {
      await fake.close();
      ws.cleanup();
    }
  });

  it("after a CLI's first refusal, does not start it again in the run, whatever the model", async () => {
    const fake = await startFakeModelServer({ apiKey: FAKE_MODEL_KEY, script: always('unreachable') });
    const ws = makeWorkspace('auth-again');
    try {
      const guarded = guardAuthentication(CLIS.claude.make(fake, ws, await cachedCliBin('claude')), {
        ANTHROPIC_API_KEY: REFUSED,
      });
      const first = await runRole(
        guarded,
        invocation(ws, { role: 'reviewer', model: 'claude-sonnet-4-5' }),
        reviewerResultSchema,
      );
      expect(!first.ok && first.auth?.kind).toBe('not authenticated');
      const asked = fake.requests.length;
      const again = await runRole(
        guarded,
        invocation(ws, { role: 'fixer', model: 'claude-opus-4-1' }),
        reviewerResultSchema,
      );
      expect(!again.ok && again.auth?.detail).toMatch(/^was not started: an earlier claude call of this run could not/);
      expect(fake.requests.length).toBe(asked);
    } finally {
      await fake.close();
      ws.cleanup();
    }
  });
});
