// The behaviour every CLI adapter must show, run against the real CLI binary and
// the fake model server. Each <cli>.test.ts calls describeCliAdapter with what
// differs: how to point the CLI at the fake, and the CLI's own tool calls.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deepMerge } from '../../src/agents/cli-common.js';
import type { CliAdapterOptions } from '../../src/agents/cli-common.js';
import type { CliKind } from '../../src/agents/cli-versions.js';
import { parseEnvelope, reviewerResultSchema } from '../../src/agents/envelope.js';
import { AgentError } from '../../src/agents/types.js';
import type { AgentAdapter, AgentAnswer, Invocation } from '../../src/agents/types.js';
import {
  always,
  envelopeText,
  promptParts,
  startFakeModelServer,
  toolsThenText,
  toolThenText,
} from '../fakes/model-server/index.js';
import type { FakeModelServer, ToolReply } from '../fakes/model-server/index.js';
import { cachedCliBin } from './cli-cache.js';
import {
  CONTEXT_MARKER,
  FAKE_GITHUB_TOKEN,
  FAKE_MODEL_KEY,
  invocation,
  liveProcesses,
  makeWorkspace,
  reviewerPayload,
} from './helpers.js';
import type { Workspace } from './helpers.js';

type Tool = ToolReply['tool'];

export interface CliTestSpec {
  kind: CliKind;
  model: string;
  create(opts: CliAdapterOptions): AgentAdapter;
  /** Adapter options that point the CLI at the fake (authenticated unless `auth` is false). */
  options(fake: FakeModelServer, ws: Workspace, bin: string, auth?: boolean): CliAdapterOptions;
  /** Whether the CLI reports the model it used (else the answer's model must be null). */
  reportsModel: boolean;
  /** Whether the CLI reports a cost. */
  reportsCost: boolean;
  tools: {
    /** Creates `file` (absolute) with `content` through the CLI's own write/patch tool. */
    write(file: string, content: string, ws: Workspace): Tool;
    /** Replaces `oldText` with `newText` in `file`: the calls in order (Claude must Read first). */
    edit(file: string, oldText: string, newText: string, ws: Workspace): Tool[];
    shell(command: string): Tool;
    /** Reads `file` (absolute) with the CLI's read tool. */
    read(file: string): Tool;
  };
  /** agent-config a user might write to hand a reviewer write access; it must not work. */
  loosen: Record<string, unknown>;
  /** At least this long for the CLI to start and reach its first tool call (the timeout test's floor). */
  startupMs: number;
  /**
   * The tools the model is offered: a read-only role reads (and Codex's runs commands in its
   * read-only sandbox); the fixer also edits and runs commands, with no web or sub-agent tools.
   */
  offered: { readOnly: string[]; fixer: string[] };
  /**
   * The most characters of tool definitions and the CLI's own system text a reviewer's request
   * carries: they are sent with every request of every call, so what a role does not use costs.
   */
  maxReviewerOwnChars: number;
}

export function describeCliAdapter(spec: CliTestSpec): void {
  describe(`${spec.kind} adapter against the real CLI`, () => {
    let fake: FakeModelServer;
    let bin: string;
    let ws: Workspace;
    const adapter = (auth = true): AgentAdapter => spec.create(spec.options(fake, ws, bin, auth));
    // The slowest successful run so far: the timeout test must let the CLI start
    // and reach its tool call before the timeout, even on a busy machine.
    let slowestMs = 0;
    const run = async (inv: Invocation): Promise<AgentAnswer> => {
      const answer = await adapter().run(inv);
      slowestMs = Math.max(slowestMs, answer.durationMs);
      return answer;
    };

    beforeAll(async () => {
      bin = await cachedCliBin(spec.kind);
      fake = await startFakeModelServer({ apiKey: FAKE_MODEL_KEY });
    });
    afterAll(async () => {
      await fake?.close();
    });
    beforeEach((ctx) => {
      ws = makeWorkspace(spec.kind);
      fake.requests.length = 0;
      ctx.onTestFinished(() => ws.cleanup());
    });

    it('runs a reviewer headless and returns its envelope, model, session and usage', async () => {
      fake.setScript(always(envelopeText(reviewerPayload)));
      const answer = await run(invocation(ws, { role: 'reviewer', model: spec.model }));
      const result = parseEnvelope(answer.text, reviewerResultSchema);
      expect(result.conclusion).toBe('request_changes');
      expect(result.findings[0]?.title).toBe('x is wrong');
      expect(answer.model).toBe(spec.reportsModel ? spec.model : null);
      expect(answer.sessionId).toMatch(/\S{6,}/);
      expect(answer.usage.inputTokens).toBeGreaterThanOrEqual(42);
      expect(answer.usage.outputTokens).toBeGreaterThanOrEqual(7);
      if (spec.reportsCost) expect(answer.usage.costUsd).toBeGreaterThan(0);
      else expect(answer.usage.costUsd).toBeNull();
      expect(fake.requests.length).toBeGreaterThan(0);
      // The model on the wire: OpenCode sends `fake-model` for `fake/fake-model`.
      const wireModel = spec.model.slice(spec.model.lastIndexOf('/') + 1);
      expect(fake.requests.map((r) => r.model)).toEqual(fake.requests.map(() => wireModel));
    });

    it('refuses, through the CLI itself, a read-only role that tries to write a file', async () => {
      const target = path.join(ws.cwd, 'hello.txt');
      fake.setScript(
        toolThenText(spec.tools.write(target, 'written by a reviewer\n', ws), envelopeText(reviewerPayload)),
      );
      const answer = await run(invocation(ws, { role: 'reviewer', model: spec.model }));
      expect(existsSync(target)).toBe(false);
      expect(answer.text).toContain('BEGIN_JSON');
      const last = fake.requests.at(-1);
      expect(last?.resultsSincePrompt).toBeGreaterThan(0); // the refusal went back to the model
    });

    it('keeps a read-only role read-only whatever agent-config says', async () => {
      const target = path.join(ws.cwd, 'hello.txt');
      fake.setScript(
        toolThenText(spec.tools.write(target, 'written by a reviewer\n', ws), envelopeText(reviewerPayload)),
      );
      const opts = spec.options(fake, ws, bin);
      const agentConfig = deepMerge(opts.agentConfig ?? {}, spec.loosen);
      await spec.create({ ...opts, agentConfig }).run(invocation(ws, { role: 'reviewer', model: spec.model }));
      expect(existsSync(target)).toBe(false);
      expect(fake.requests.length).toBeGreaterThan(0);
    });

    it.each(['reviewer', 'fixer'] as const)('offers the %s only the tools its role uses', async (role) => {
      fake.setScript(always(envelopeText(reviewerPayload)));
      await run(invocation(ws, { role, model: spec.model }));
      const offered = role === 'reviewer' ? spec.offered.readOnly : spec.offered.fixer;
      expect(fake.requests.length).toBeGreaterThan(0);
      for (const r of fake.requests) expect([...r.toolNames].sort()).toEqual([...offered].sort());
    });

    it("sends a reviewer's request without the text of tools and features the role does not use", async () => {
      fake.setScript(always(envelopeText(reviewerPayload)));
      await run(invocation(ws, { role: 'reviewer', model: spec.model }));
      const parts = promptParts(fake.requests[0]!.body);
      expect(parts.conversation).toBeGreaterThan(0);
      expect(parts.tools + parts.system).toBeLessThanOrEqual(spec.maxReviewerOwnChars);
    });

    it('lets a read-only role read the context folder outside the checkout', async () => {
      fake.setScript(toolThenText(spec.tools.read(path.join(ws.contextDir, 'pr.json')), envelopeText(reviewerPayload)));
      await run(invocation(ws, { role: 'reviewer', model: spec.model }));
      expect(fake.requests.flatMap((r) => r.toolResults).join('\n')).toContain(CONTEXT_MARKER);
    });

    it('lets the fixer change a file on disk with its own edit tool', async () => {
      const file = path.join(ws.cwd, 'app.txt');
      fake.setScript(
        toolsThenText(spec.tools.edit(file, 'let x = 1 // BUG', 'let x = 2', ws), 'fixed BEGIN_JSON {} END_JSON'),
      );
      const answer = await run(invocation(ws, { role: 'fixer', model: spec.model }));
      expect(readFileSync(file, 'utf8')).toContain('let x = 2');
      expect(answer.text).toContain('fixed');
    });

    it.each(['fixer', 'reviewer'] as const)('resumes the %s session: the model sees the earlier turn', async (role) => {
      fake.setScript(always('first answer'));
      const first = await run(invocation(ws, { role, model: spec.model, prompt: 'ROUND-ONE-PROMPT' }));
      expect(first.sessionId).toBeTruthy();
      fake.requests.length = 0;
      fake.setScript(always('second answer'));
      const second = await run(
        invocation(ws, { role, model: spec.model, prompt: 'ROUND-TWO-PROMPT', round: 2, sessionId: first.sessionId! }),
      );
      expect(second.text).toContain('second answer');
      expect(second.sessionId).toBe(first.sessionId);
      // What this call spent, not the session's running total (one request each: 42 in, 7 out).
      expect(second.usage.inputTokens).toBe(first.usage.inputTokens);
      expect(second.usage.outputTokens).toBe(first.usage.outputTokens);
      const seen = fake.requests.map((r) => r.transcript).join('\n');
      expect(seen).toContain('ROUND-ONE-PROMPT');
      expect(seen).toContain('first answer');
      expect(seen).toContain('ROUND-TWO-PROMPT');
    });

    it('keeps a resumed reviewer read-only: the resumed session may not write either', async () => {
      fake.setScript(always('first answer'));
      const first = await run(invocation(ws, { role: 'reviewer', model: spec.model }));
      const target = path.join(ws.cwd, 'hello.txt');
      fake.setScript(
        toolThenText(spec.tools.write(target, 'written by a reviewer\n', ws), envelopeText(reviewerPayload)),
      );
      await run(invocation(ws, { role: 'reviewer', model: spec.model, round: 2, sessionId: first.sessionId! }));
      expect(existsSync(target)).toBe(false);
      expect(fake.requests.at(-1)?.resultsSincePrompt).toBeGreaterThan(0);
    });

    it('kills the whole process tree on timeout and says so', async () => {
      // Relative: OpenCode refuses (and ends the run on) commands naming paths outside the checkout.
      const started = path.join(ws.cwd, 'sleeper-started');
      fake.setScript(toolThenText(spec.tools.shell('touch sleeper-started; sleep 60'), 'never'));
      const timeoutMs = Math.max(spec.startupMs, slowestMs) + 3000;
      const err = await adapter()
        .run(invocation(ws, { role: 'fixer', model: spec.model, timeoutMs }))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(AgentError);
      expect((err as AgentError).detail.timedOut).toBe(true);
      expect((err as AgentError).message).toMatch(new RegExp(`${spec.kind} agent .*model ${spec.model}.*timed out`));
      expect(existsSync(started)).toBe(true); // the grandchild did run …
      // … and nothing of the tree is left (SIGKILL lands within milliseconds).
      await expect.poll(() => liveProcesses(ws.marker), { timeout: 3000 }).toEqual([]);
    });

    it('gives the CLI an environment without the GitHub token', async () => {
      fake.setScript(toolThenText(spec.tools.shell('env'), 'done'));
      await run(invocation(ws, { role: 'fixer', model: spec.model }));
      const envOutput = fake.requests.flatMap((r) => r.toolResults).join('\n');
      expect(envOutput).toContain(ws.marker); // the tool ran and its output came back …
      expect(envOutput).toContain('REVIEW_LOOP_ROLE=fixer');
      expect(envOutput).not.toContain(FAKE_GITHUB_TOKEN); // … without the token
      expect(JSON.stringify(fake.requests)).not.toContain(FAKE_GITHUB_TOKEN);
    });

    it('fails fast with the CLI, the model and the cause on an HTTP 400', async () => {
      fake.setScript(() => ({ error: 400, message: 'fake-bad-request' }));
      const started = Date.now();
      const err = await adapter()
        .run(invocation(ws, { role: 'reviewer', model: spec.model }))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(AgentError);
      expect((err as AgentError).message).toContain(`${spec.kind} agent (reviewer-1, model ${spec.model})`);
      expect((err as AgentError).message).toMatch(/400|fake-bad-request/);
      expect(Date.now() - started).toBeLessThan(30_000);
    });

    it('fails with a clear message when the CLI is not authenticated', async () => {
      fake.setScript(always('unreachable'));
      const err = await adapter(false)
        .run(invocation(ws, { role: 'reviewer', model: spec.model }))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(AgentError);
      expect((err as AgentError).message).toMatch(
        new RegExp(`${spec.kind} agent .*(auth|log ?in|api key|API_KEY)`, 'i'),
      );
    });
  });
}
