// The registry: which adapter answers for each agent kind.
import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../src/agents/registry.js';
import { NO_USAGE } from '../../src/agents/types.js';
import { withTempDir } from './helpers.js';
import type { AgentAdapter } from '../../src/agents/types.js';

// A tiny in-test adapter standing in for a CLI adapter another module provides.
const claudeLike: AgentAdapter = {
  kind: 'claude',
  run: async () => ({ text: 'hi', model: 'claude-x', sessionId: null, usage: NO_USAGE, durationMs: 1 }),
};

describe('createRegistry', () => {
  it('says clearly which agent is missing and why', () => {
    const reg = createRegistry();
    expect(() => reg.get('codex')).toThrow(/^agent 'codex' is not available: /);
    expect(() => reg.get('command')).toThrow(/agent 'command' is not available: set the agent-command input/);
    expect(reg.kinds()).toEqual([]);
  });

  it('builds the command adapter from agent-command', async () => {
    const reg = createRegistry({ agentCommand: 'cat', baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    expect(reg.has('command')).toBe(true);
    const adapter = reg.get('command');
    expect(adapter.kind).toBe('command');
    await withTempDir(async (dir) => {
      const answer = await adapter.run({
        role: 'gate',
        name: 'gate',
        model: 'm',
        prompt: 'echo me',
        cwd: dir,
        contextDir: dir,
        stateDir: `${dir}/state`,
        round: 1,
        timeoutMs: 5_000,
      });
      expect(answer.text).toBe('echo me');
    });
  });

  it('serves adapters passed in, and rejects one registered under the wrong kind', () => {
    const reg = createRegistry({ adapters: { claude: claudeLike } });
    expect(reg.get('claude')).toBe(claudeLike);
    expect(reg.kinds()).toEqual(['claude']);
    expect(() => createRegistry({ adapters: { gemini: claudeLike } })).toThrow(
      /registered as 'gemini' says it is 'claude'/,
    );
  });
});
