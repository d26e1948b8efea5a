import { it } from 'vitest';
import { createClaudeAdapter } from '../../src/agents/claude.js';
import { createCodexAdapter } from '../../src/agents/codex.js';
import { createGeminiAdapter } from '../../src/agents/gemini.js';
import { createOpencodeAdapter } from '../../src/agents/opencode.js';
import { startFakeModelServer, type Reply } from '../fakes/model-server/index.js';
import { cachedCliBin } from './cli-cache.js';
import { codexFakeProvider, FAKE_MODEL_KEY, invocation, makeWorkspace, parentEnv } from './helpers.js';

const cases: [string, Reply][] = [
  ['429', { error: 429, message: 'Rate limited (fake)', retryAfter: 0 }],
  ['529', { error: 529, message: 'Overloaded', retryAfter: 0 }],
  ['503', { error: 503, message: 'The model is overloaded', retryAfter: 0 }],
  ['429q', { error: 429, quota: true, retryAfter: 0, message: 'You exceeded your current quota, please check your plan and billing details.' }],
];
for (const kind of (process.env.PROBE ?? 'claude,codex,gemini,opencode').split(',')) {
  for (const [label, reply] of cases.filter(([l]) => (process.env.CASES ?? l).split(',').includes(l))) {
    it(`${kind} ${label}`, { timeout: 300_000 }, async () => {
      const fake = await startFakeModelServer({ apiKey: FAKE_MODEL_KEY, script: () => reply });
      const ws = makeWorkspace('probe');
      const bin = await cachedCliBin(kind as never);
      const base = { binPath: bin };
      const adapter =
        kind === 'claude' ? createClaudeAdapter({ ...base, baseEnv: parentEnv(ws, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: FAKE_MODEL_KEY, CLAUDE_CODE_MAX_RETRIES: '0' }) })
        : kind === 'codex' ? createCodexAdapter({ ...base, baseEnv: parentEnv(ws, { FAKE_API_KEY: FAKE_MODEL_KEY }), agentConfig: codexFakeProvider(fake.url, { request_max_retries: 4, stream_max_retries: 4 }) })
        : kind === 'gemini' ? createGeminiAdapter({ ...base, baseEnv: parentEnv(ws, { GOOGLE_GEMINI_BASE_URL: fake.url, GEMINI_API_KEY: FAKE_MODEL_KEY, GEMINI_CLI_NO_RELAUNCH: 'true' }) })
        : createOpencodeAdapter({ ...base, baseEnv: parentEnv(ws, { FAKE_API_KEY: FAKE_MODEL_KEY }), agentConfig: { provider: { fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: `${fake.url}/v1`, apiKey: '{env:FAKE_API_KEY}' }, models: { 'fake-model': { name: 'Fake' } } } } } });
      const model = { claude: 'claude-sonnet-4-5', codex: 'gpt-5.5', gemini: 'gemini-2.5-pro', opencode: 'fake/fake-model' }[kind]!;
      const t = Date.now();
      const err = await adapter.run(invocation(ws, { role: 'reviewer', model, timeoutMs: 40_000 })).then(() => 'OK', (e: unknown) => e);
      const ms = Date.now() - t;
      console.log(`=== PROBE ${kind} ${label}: ${ms} ms, ${fake.requests.length} requests\n${String((err as Error).message ?? err)}\n=== END`);
      await fake.close();
      ws.cleanup();
    });
  }
}
