// The fake model server on its own: routing, encoding, recording, auth, delays.
// (Each CLI test drives it through a real CLI; these pin the behaviour tests rely on.)
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer } from '../fakes/model-server/index.js';
import type { FakeModelServer } from '../fakes/model-server/index.js';

let fake: FakeModelServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('fake model server', () => {
  it('answers each protocol in its own shape and records the request', async () => {
    fake = await startFakeModelServer({ script: () => ({ text: 'hello' }) });
    const anthropic = await (
      await post(`${fake.url}/v1/messages?beta=true`, {
        model: 'claude-x',
        messages: [{ role: 'user', content: 'hi' }],
      })
    ).text();
    expect(anthropic).toContain('event: message_start');
    expect(anthropic).toContain('"text":"hello"');
    const responses = await (await post(`${fake.url}/v1/responses`, { model: 'gpt-5.5', input: [] })).text();
    expect(responses).toContain('event: response.completed');
    const chat = await (await post(`${fake.url}/v1/chat/completions`, { model: 'm', messages: [] })).text();
    expect(chat.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const gemini = await (
      await post(`${fake.url}/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`, { contents: [] })
    ).text();
    expect(gemini).toContain('"modelVersion":"gemini-2.5-pro"');
    expect(fake.requests.map((r) => [r.protocol, r.model])).toEqual([
      ['anthropic', 'claude-x'],
      ['responses', 'gpt-5.5'],
      ['chat', 'm'],
      ['gemini', 'gemini-2.5-pro'],
    ]);
  });

  it('reads tool results and counts those since the current prompt', async () => {
    fake = await startFakeModelServer({ script: () => ({ text: 'ok' }) });
    const messages = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'RESULT-ONE' }] },
      { role: 'user', content: 'second prompt' },
    ];
    await post(`${fake.url}/v1/messages`, { model: 'c', messages, tools: [{ name: 'Read' }] });
    const [req] = fake.requests;
    expect(req?.toolResults).toEqual(['RESULT-ONE']);
    expect(req?.resultsSincePrompt).toBe(0);
    expect(req?.toolNames).toEqual(['Read']);
    expect(req?.transcript).toContain('second prompt');
  });

  it('plays a list in order, then fails fast; demands the api key when told to', async () => {
    fake = await startFakeModelServer({ script: [{ text: 'one' }], apiKey: 'k1' });
    expect((await post(`${fake.url}/v1/chat/completions`, {}, { authorization: 'Bearer k1' })).status).toBe(200);
    const spent = await post(`${fake.url}/v1/chat/completions`, {}, { authorization: 'Bearer k1' });
    expect(spent.status).toBe(400);
    expect(await spent.text()).toContain('script exhausted');
    expect((await post(`${fake.url}/v1/messages`, {}, { 'x-api-key': 'wrong' })).status).toBe(401);
  });

  it('counts the tokens each request sent, and the prefix an earlier one sent, when told to', async () => {
    fake = await startFakeModelServer({ script: () => ({ text: 'x'.repeat(40) }), countTokens: true });
    const system = 'S'.repeat(4000);
    const tools = [{ name: 'Read', input_schema: { type: 'object' } }];
    const first = [{ role: 'user', content: [{ type: 'text', text: 'review', cache_control: { type: 'ephemeral' } }] }];
    const body = (messages: unknown[]) => ({ model: 'claude-x', system, tools, messages });
    const answer = await (await post(`${fake.url}/v1/messages`, body(first))).text();
    // Resumed: the same conversation again (its cache mark moved on), and one more turn.
    const resumed = [
      { role: 'user', content: [{ type: 'text', text: 'review' }] },
      { role: 'assistant', content: 'x'.repeat(40) },
      { role: 'user', content: [{ type: 'text', text: 'again', cache_control: { type: 'ephemeral' } }] },
    ];
    await post(`${fake.url}/v1/messages`, body(resumed));
    const [a, b] = fake.requests.map((r) => r.tokens!);
    expect(a!.input).toBeGreaterThan(1000);
    expect(a!.input).toBeLessThan(1100);
    expect(a!.cached).toBe(0);
    expect(b!.input).toBeGreaterThan(a!.input);
    // Tools, system and the first user turn were sent before: only the rest is new.
    expect(b!.cached).toBeGreaterThan(a!.input - 5);
    expect(b!.input - b!.cached).toBeLessThan(40); // the two new turns, about 135 characters
    // The reply reports what was sent, so a CLI counts it.
    expect(answer).toContain(`"input_tokens":${a!.input}`);
    expect(answer).toContain('"output_tokens":10');
  });

  it('waits delayMs before answering (a slow model)', async () => {
    fake = await startFakeModelServer({ script: () => ({ text: 'late', delayMs: 300 }) });
    const started = Date.now();
    await (await post(`${fake.url}/v1/responses`, {})).text();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });
});
