// Claude Code adapter against the real `claude` binary (pinned in cli-versions.ts).
import { describe, expect, it } from 'vitest';
import { createClaudeAdapter } from '../../src/agents/claude.js';
import { checkModel } from '../../src/agents/run-role.js';
import { always, startFakeModelServer } from '../fakes/model-server/index.js';
import { cachedCliBin } from './cli-cache.js';
import { describeCliAdapter } from './cli-suite.js';
import { FAKE_MODEL_KEY, invocation, makeWorkspace, parentEnv } from './helpers.js';

describeCliAdapter({
  kind: 'claude',
  model: 'claude-sonnet-4-5',
  create: createClaudeAdapter,
  options: (fake, ws, bin, auth = true) => ({
    binPath: bin,
    baseEnv: parentEnv(ws, {
      ANTHROPIC_BASE_URL: fake.url,
      ...(auth ? { ANTHROPIC_API_KEY: FAKE_MODEL_KEY } : {}),
      CLAUDE_CODE_MAX_RETRIES: '0',
    }),
  }),
  reportsModel: true,
  reportsCost: true,
  tools: {
    write: (file, content) => ({ name: 'Write', input: { file_path: file, content } }),
    // Claude's Edit refuses a file that was not Read first in the session.
    edit: (file, oldText, newText) => [
      { name: 'Read', input: { file_path: file } },
      { name: 'Edit', input: { file_path: file, old_string: oldText, new_string: newText } },
    ],
    shell: (command) => ({ name: 'Bash', input: { command, description: 'run a command' } }),
    read: (file) => ({ name: 'Read', input: { file_path: file } }),
  },
  startupMs: 2000,
});

describe('claude model reporting', () => {
  it('reports the model the CLI actually called, so a silent remap is caught as a mismatch', async () => {
    const fake = await startFakeModelServer({ script: always('hi') });
    const ws = makeWorkspace('claude-model');
    try {
      const adapter = createClaudeAdapter({
        binPath: await cachedCliBin('claude'),
        baseEnv: parentEnv(ws, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-ant-dummy' }),
      });
      // 2.1.197 sends claude-opus-4-8 when asked for the retired claude-opus-4-1.
      const answer = await adapter.run(invocation(ws, { role: 'reviewer', model: 'claude-opus-4-1' }));
      expect(fake.requests[0]?.model).toBe('claude-opus-4-8');
      expect(answer.model).toBe('claude-opus-4-8');
      expect(checkModel('claude-opus-4-1', answer.model).status).toBe('mismatch');
    } finally {
      ws.cleanup();
      await fake.close();
    }
  });
});
