// What each pinned CLI says when the model cannot take the call (quota spent, rate limited,
// overloaded), through the fake model server, and that agents/quota.ts reads it as such. The
// fake answers the way no CLI retries (a spent quota), or with retry-after 0, or the CLI's own
// retries are off (Claude Code, Codex: as the agent tests set them), so this takes seconds.
import { describe, expect, it } from 'vitest';
import { createClaudeAdapter } from '../../src/agents/claude.js';
import { createCodexAdapter } from '../../src/agents/codex.js';
import { createCommandAdapter } from '../../src/agents/command.js';
import { createGeminiAdapter } from '../../src/agents/gemini.js';
import { createOpencodeAdapter } from '../../src/agents/opencode.js';
import { quotaFailure } from '../../src/agents/quota.js';
import type { QuotaKind } from '../../src/domain/agent-run.js';
import { runRole } from '../../src/agents/run-role.js';
import { reviewerResultSchema } from '../../src/agents/envelope.js';
import type { AgentAdapter } from '../../src/agents/types.js';
import { startFakeModelServer, type ErrorReply, type FakeModelServer } from '../fakes/model-server/index.js';
import { cachedCliBin } from './cli-cache.js';
import { codexFakeProvider, FAKE_MODEL_KEY, invocation, makeWorkspace, parentEnv, type Workspace } from './helpers.js';

type Make = (fake: FakeModelServer, ws: Workspace, bin: string) => AgentAdapter;

const CLIS: Record<'claude' | 'codex' | 'gemini' | 'opencode', { model: string; make: Make }> = {
  claude: {
    model: 'claude-sonnet-4-5',
    make: (fake, ws, bin) =>
      createClaudeAdapter({
        binPath: bin,
        baseEnv: parentEnv(ws, {
          ANTHROPIC_BASE_URL: fake.url,
          ANTHROPIC_API_KEY: FAKE_MODEL_KEY,
          CLAUDE_CODE_MAX_RETRIES: '0',
        }),
      }),
  },
  codex: {
    model: 'gpt-5.5',
    make: (fake, ws, bin) =>
      createCodexAdapter({
        binPath: bin,
        baseEnv: parentEnv(ws, { FAKE_API_KEY: FAKE_MODEL_KEY }),
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
          GEMINI_API_KEY: FAKE_MODEL_KEY,
          GEMINI_CLI_NO_RELAUNCH: 'true',
        }),
      }),
  },
  opencode: {
    model: 'fake/fake-model',
    make: (fake, ws, bin) =>
      createOpencodeAdapter({
        binPath: bin,
        baseEnv: parentEnv(ws, { FAKE_API_KEY: FAKE_MODEL_KEY }),
        agentConfig: {
          provider: {
            fake: {
              npm: '@ai-sdk/openai-compatible',
              name: 'Fake',
              options: { baseURL: `${fake.url}/v1`, apiKey: '{env:FAKE_API_KEY}' },
              models: { 'fake-model': { name: 'Fake' } },
            },
          },
        },
      }),
  },
};

const QUOTA: ErrorReply = { error: 429, quota: true, retryAfter: 0, message: 'You exceeded your current quota.' };
const RATE: ErrorReply = { error: 429, retryAfter: 0, message: 'Rate limited (fake)' };
const OVERLOADED: ErrorReply = { error: 529, retryAfter: 0, message: 'Overloaded' };

const cases: [keyof typeof CLIS, ErrorReply, QuotaKind, RegExp][] = [
  ['claude', RATE, 'rate limit', /API Error: Request rejected \(429\)/],
  ['claude', OVERLOADED, 'overloaded', /API Error: 529 Overloaded/],
  ['codex', QUOTA, 'quota', /Quota exceeded\. Check your plan and billing details/],
  ['codex', OVERLOADED, 'overloaded', /unexpected status 529/],
  ['gemini', QUOTA, 'quota', /You have exhausted your daily quota on this model/],
  ['opencode', RATE, 'rate limit', /Rate limited \(fake\) \(HTTP 429\)/],
];

describe('quota, rate limit and overload as each CLI reports them', () => {
  for (const [kind, reply, expected, words] of cases) {
    it(`${kind}: HTTP ${reply.error}${reply.quota ? ' (quota)' : ''} is read as ${expected}`, async () => {
      const fake = await startFakeModelServer({ apiKey: FAKE_MODEL_KEY, script: () => reply });
      const ws = makeWorkspace(`quota-${kind}`);
      try {
        const adapter = CLIS[kind].make(fake, ws, await cachedCliBin(kind));
        const inv = invocation(ws, { role: 'reviewer', model: CLIS[kind].model, timeoutMs: 45_000 });
        const outcome = await runRole(adapter, inv, reviewerResultSchema);
        expect(outcome.ok).toBe(false);
        if (outcome.ok) return;
        expect(outcome.error).toMatch(words);
        expect(outcome.quota?.kind).toBe(expected);
        // Ended by the CLI itself, not by our time limit after its back-off.
        expect(outcome.error).not.toMatch(/timed out/);
      } finally {
        await fake.close();
        ws.cleanup();
      }
    });
  }

  it('command: a failed call whose stderr names the limit is read as such, any other failure is not', async () => {
    const ws = makeWorkspace('quota-command');
    try {
      const limited = createCommandAdapter('echo "HTTP 429: rate limit reached for $REVIEW_LOOP_MODEL" >&2; exit 3');
      const broken = createCommandAdapter('echo "segmentation fault" >&2; exit 3');
      const inv = invocation(ws, { role: 'reviewer', model: 'my-model' });
      const a = await runRole(limited, inv, reviewerResultSchema);
      const b = await runRole(broken, inv, reviewerResultSchema);
      expect(!a.ok && a.quota).toEqual({ kind: 'rate limit', detail: 'HTTP 429: rate limit reached for my-model' });
      expect(!b.ok && b.quota).toBeFalsy();
    } finally {
      ws.cleanup();
    }
  });
});

describe('quotaFailure', () => {
  it('reads the messages the CLIs print after their own retries, as reported in their trackers', () => {
    expect(quotaFailure('API Error: Repeated 529 Overloaded errors')?.kind).toBe('overloaded');
    expect(quotaFailure('exceeded retry limit, last status: 429 Too Many Requests')?.kind).toBe('rate limit');
    expect(quotaFailure('[API Error: Resource has been exhausted (e.g. check quota).]')?.kind).toBe('quota');
    expect(quotaFailure("You've hit your usage limit. Upgrade to Pro")?.kind).toBe('quota');
    expect(quotaFailure('exited with code 1; stderr:\nTypeError: x is undefined')).toBeUndefined();
    // Paths and URLs are no evidence: a checkout may be named after anything.
    expect(quotaFailure('exited with code 2: cannot open /home/runner/work/quota-429/app.ts')).toBeUndefined();
    // A word of 200,000 characters: the path pattern once restarted at each of them (quadratic).
    const word = 'x'.repeat(200_000);
    expect(quotaFailure(`429 Too Many Requests ${word}`)?.kind).toBe('rate limit');
    expect(quotaFailure(`${word} ${word}/quota`)).toBeUndefined();
  });
});
