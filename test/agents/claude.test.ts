// Claude Code adapter against the real `claude` binary (pinned in cli-versions.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeAdapter } from '../../src/agents/claude.js';
import { checkModel } from '../../src/agents/run-role.js';
import type { AgentError } from '../../src/agents/types.js';
import { always, startFakeModelServer, toolThenText, toolsThenText } from '../fakes/model-server/index.js';
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
  loosen: { permissions: { allow: ['Write', 'Edit', 'Bash'], defaultMode: 'bypassPermissions' } },
  startupMs: 2000,
  offered: { readOnly: ['Read', 'Grep', 'Glob'], fixer: ['Read', 'Grep', 'Glob', 'Edit', 'Write', 'Bash'] },
  // 33,800 before the unused tools and features were switched off.
  maxReviewerOwnChars: 22_000,
});

describe('claude specifics', () => {
  it('stops a call past its share of max-cost-usd itself (--max-budget-usd), after one model turn', async () => {
    // Two tool turns then text: without the bound the CLI makes three requests.
    const script = toolsThenText(
      [
        { name: 'Read', input: { file_path: 'README.md' } },
        { name: 'Read', input: { file_path: 'README.md' } },
      ],
      'done',
    );
    const fake = await startFakeModelServer({ script, apiKey: FAKE_MODEL_KEY });
    const ws = makeWorkspace('claude-budget');
    try {
      const adapter = createClaudeAdapter({
        binPath: await cachedCliBin('claude'),
        baseEnv: parentEnv(ws, {
          ANTHROPIC_BASE_URL: fake.url,
          ANTHROPIC_API_KEY: FAKE_MODEL_KEY,
          CLAUDE_CODE_MAX_RETRIES: '0',
        }),
      });
      const error = await adapter
        .run(invocation(ws, { role: 'reviewer', model: 'claude-sonnet-4-5', maxCostUsd: 0.000001 }))
        .catch((e: unknown) => e);
      expect(fake.requests.length).toBe(1);
      expect(String(error)).toMatch(/error_max_budget_usd/);
      // The failed call was paid for: its usage travels with the error, for the budget.
      expect((error as AgentError).detail.usage?.costUsd).toBeGreaterThan(0);
    } finally {
      ws.cleanup();
      await fake.close();
    }
  });

  it('takes agent-config as settings (env reaches the CLI) but cannot loosen a read-only role', async () => {
    const fake = await startFakeModelServer({ apiKey: FAKE_MODEL_KEY });
    const ws = makeWorkspace('claude-config');
    try {
      const target = path.join(ws.cwd, 'hello.txt');
      fake.setScript(toolThenText({ name: 'Write', input: { file_path: target, content: 'x' } }, 'done'));
      const adapter = createClaudeAdapter({
        binPath: await cachedCliBin('claude'),
        baseEnv: parentEnv(ws, {}), // no base URL and no key in the step env: both come from agent-config
        agentConfig: {
          env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: FAKE_MODEL_KEY },
          permissions: { allow: ['Write', 'Edit', 'Bash'], defaultMode: 'bypassPermissions' },
        },
      });
      const answer = await adapter.run(invocation(ws, { role: 'reviewer', model: 'claude-sonnet-4-5' }));
      expect(answer.text).toBe('done');
      expect(fake.requests[0]?.toolNames).toEqual(['Glob', 'Grep', 'Read']);
      expect(existsSync(target)).toBe(false);
    } finally {
      ws.cleanup();
      await fake.close();
    }
  });

  it('refuses a read-only role a read under /proc, where other processes keep their environment', async () => {
    const fake = await startFakeModelServer({ apiKey: FAKE_MODEL_KEY });
    const ws = makeWorkspace('claude-proc');
    try {
      fake.setScript(toolThenText({ name: 'Read', input: { file_path: `/proc/${process.pid}/environ` } }, 'done'));
      const adapter = createClaudeAdapter({
        binPath: await cachedCliBin('claude'),
        baseEnv: parentEnv(ws, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: FAKE_MODEL_KEY }),
      });
      const answer = await adapter.run(invocation(ws, { role: 'reviewer', model: 'claude-sonnet-4-5' }));
      expect(answer.text).toBe('done');
      const results = fake.requests.flatMap((r) => r.toolResults).join('\n');
      // The tool result the model got back is a denial, not the test runner's environment.
      expect(results).toMatch(/denied/i);
      expect(results).not.toContain('PATH=');
    } finally {
      ws.cleanup();
      await fake.close();
    }
  });

  it('reports the model the CLI actually called, so a silent remap is caught as a mismatch', async () => {
    const fake = await startFakeModelServer({ script: always('hi'), apiKey: FAKE_MODEL_KEY });
    const ws = makeWorkspace('claude-model');
    try {
      const adapter = createClaudeAdapter({
        binPath: await cachedCliBin('claude'),
        baseEnv: parentEnv(ws, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: FAKE_MODEL_KEY }),
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
