// The `command` adapter and runRole with scripted agents run as real processes.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCommandAdapter } from '../../src/agents/command.js';
import { writeContextDir } from '../../src/roles/context-dir.js';
import { reviewerResultSchema } from '../../src/agents/envelope.js';
import { runRole } from '../../src/agents/run-role.js';
import { AgentError } from '../../src/agents/types.js';
import type { Invocation } from '../../src/agents/types.js';
import { NODE, fake, withTempDir } from './helpers.js';

const BASE_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', GITHUB_TOKEN: 'ghs_parent_token_123', LANG: 'C.UTF-8' };

function agentCommand(mode: string): string {
  return `'${NODE}' '${fake('scripted-agent.mjs')}' ${mode}`;
}

async function invocation(dir: string, more: Partial<Invocation> = {}): Promise<Invocation> {
  const contextDir = await writeContextDir(path.join(dir, 'ctx'), 'round-2-reviewer-1', {
    pr: { number: 1 },
    files: [],
    diff: '',
    threads: [],
    reviewState: {},
  });
  return {
    role: 'reviewer',
    name: 'reviewer-1',
    model: 'scripted-model-1',
    prompt: 'Review this pull request.\n'.repeat(100),
    cwd: dir,
    contextDir,
    stateDir: path.join(dir, 'state', 'reviewer-1'),
    round: 2,
    timeoutMs: 5_000,
    ...more,
  };
}

describe('command adapter', () => {
  it('passes prompt, role variables and a private HOME; the envelope parses', async () => {
    await withTempDir(async (dir) => {
      const inv = await invocation(dir);
      const adapter = createCommandAdapter(agentCommand('envelope'), { baseEnv: BASE_ENV });
      const out = await runRole(adapter, inv, reviewerResultSchema);
      if (!out.ok) throw new Error(out.error);
      expect(out.value.conclusion).toBe('approve');
      expect(out.model).toEqual({ status: 'not-reported', requested: 'scripted-model-1', reported: null });
      expect(out.answer.model).toBeNull();
      expect(out.answer.usage).toEqual({ inputTokens: null, outputTokens: null, costUsd: null });
      expect(out.answer.durationMs).toBeGreaterThan(0);
      expect(JSON.parse(out.value.fullReport)).toEqual({
        role: 'reviewer',
        model: 'scripted-model-1',
        round: '2',
        contextDir: inv.contextDir,
        name: 'reviewer-1',
        home: inv.stateDir,
        cwd: dir,
        promptLength: inv.prompt.length,
        githubToken: null,
      });
    });
  });

  it('runs the command line through a shell, so pipes work', async () => {
    await withTempDir(async (dir) => {
      const piped = `${agentCommand('envelope')} | sed 's/"approve"/"request_changes"/'`;
      const adapter = createCommandAdapter(piped, { baseEnv: BASE_ENV });
      const out = await runRole(adapter, await invocation(dir), reviewerResultSchema);
      expect(out.ok && out.value.conclusion).toBe('request_changes');
    });
  });

  it('turns a non-zero exit into an AgentError with the last 20 stderr lines', async () => {
    await withTempDir(async (dir) => {
      const adapter = createCommandAdapter(agentCommand('exit3'), { baseEnv: BASE_ENV });
      const err = await adapter.run(await invocation(dir)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AgentError);
      const e = err as AgentError;
      expect(e.message).toMatch(/^command agent \(reviewer-1, model scripted-model-1\) exited with code 3; stderr:\n/);
      expect(e.message).toContain('stderr line 30');
      expect(e.message).toContain('stderr line 11');
      expect(e.message).not.toContain('stderr line 10\n');
      expect(e.detail).toMatchObject({ agent: 'command', model: 'scripted-model-1', timedOut: false });
      expect(e.detail.stderrTail?.split('\n')).toHaveLength(20);
    });
  });

  it('turns a timeout into an AgentError that says so', async () => {
    await withTempDir(async (dir) => {
      const adapter = createCommandAdapter(agentCommand('hang'), { baseEnv: BASE_ENV });
      const started = Date.now();
      const err = (await adapter.run(await invocation(dir, { timeoutMs: 300 })).catch((e: unknown) => e)) as AgentError;
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(err).toBeInstanceOf(AgentError);
      expect(err.message).toContain('timed out after 300 ms');
      expect(err.detail.timedOut).toBe(true);
    });
  });

  it('reports a command that does not exist', async () => {
    await withTempDir(async (dir) => {
      const adapter = createCommandAdapter('no-such-agent-cli-4711 --print', { baseEnv: BASE_ENV });
      const out = await runRole(adapter, await invocation(dir), reviewerResultSchema);
      expect(out.ok).toBe(false);
      if (out.ok) return;
      expect(out.error).toContain('exited with code 127');
      expect(out.error).toContain('no-such-agent-cli-4711');
    });
  });

  it('refuses an empty command line', () => {
    expect(() => createCommandAdapter('  ')).toThrow(/agent-command is empty/);
  });
});

describe('runRole failures', () => {
  it('garbage output → ok:false naming the missing envelope, with the answer kept', async () => {
    await withTempDir(async (dir) => {
      const adapter = createCommandAdapter(agentCommand('garbage'), { baseEnv: BASE_ENV });
      const out = await runRole(adapter, await invocation(dir), reviewerResultSchema);
      expect(out.ok).toBe(false);
      if (out.ok) return;
      expect(out.error).toBe(
        'command agent (reviewer-1, model scripted-model-1): no BEGIN_JSON … END_JSON envelope in the answer',
      );
      expect(out.answer?.text).toContain('seems fine');
    });
  });

  it('an envelope of the wrong shape → ok:false naming the field', async () => {
    await withTempDir(async (dir) => {
      const adapter = createCommandAdapter(`printf 'BEGIN_JSON\\n{"conclusion":"maybe","findings":[]}\\nEND_JSON\\n'`, {
        baseEnv: BASE_ENV,
      });
      const out = await runRole(adapter, await invocation(dir), reviewerResultSchema);
      expect(out.ok).toBe(false);
      if (!out.ok) expect(out.error).toMatch(/does not match the expected shape: conclusion/);
    });
  });

  it('invalid JSON in the envelope → ok:false', async () => {
    await withTempDir(async (dir) => {
      const adapter = createCommandAdapter(`printf 'BEGIN_JSON\\n{"conclusion":\\nEND_JSON\\n'`, { baseEnv: BASE_ENV });
      const out = await runRole(adapter, await invocation(dir), reviewerResultSchema);
      expect(out.ok).toBe(false);
      if (!out.ok) expect(out.error).toContain('envelope is not valid JSON');
    });
  });

  it('exit 3 → ok:false with the AgentError message, never a throw', async () => {
    await withTempDir(async (dir) => {
      const adapter = createCommandAdapter(agentCommand('exit3'), { baseEnv: BASE_ENV });
      const out = await runRole(adapter, await invocation(dir), reviewerResultSchema);
      expect(out.ok).toBe(false);
      if (!out.ok)
        expect(out.error).toMatch(/^command agent \(reviewer-1, model scripted-model-1\) exited with code 3/);
    });
  });
});
