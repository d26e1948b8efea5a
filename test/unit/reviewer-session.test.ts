// Reviewers resume their CLI session from round to round: the resumed call
// gets the short resumed prompt, the same state home and the session id; a session that cannot
// be resumed gives a fresh session with the whole prompt, and one record for the two calls.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRegistry } from '../../src/agents/registry.js';
import type { AgentAdapter, Invocation } from '../../src/agents/types.js';
import type { RoleEnv } from '../../src/roles/call.js';
import { loadPrompts } from '../../src/roles/prompts.js';
import type { ReviewerSessions } from '../../src/review/reviewer-call.js';
import { INLINE_LATER_CHARS } from '../../src/review/later-round.js';
import { runReviewRound } from '../../src/review/round.js';
import { prContext, PROMPTS_URL } from '../factories.js';
import { sessionfulAdapter } from './sessionful-adapter.js';

const approve = (inv: Invocation) =>
  `BEGIN_JSON\n${JSON.stringify({ agent: inv.name, prNumber: 7, conclusion: 'approve', findings: [], fullReport: 'ok' })}\nEND_JSON`;

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'reviewer-session-'));
});
afterEach(() => rm(scratch, { recursive: true, force: true }));

async function env(adapter: AgentAdapter, log: string[]): Promise<RoleEnv> {
  return {
    registry: createRegistry({ adapters: { claude: adapter } }),
    prompts: await loadPrompts(PROMPTS_URL),
    workDir: scratch,
    scratchDir: scratch,
    timeoutMs: 10_000,
    log: (line) => log.push(line),
  };
}

const spec = { agent: 'claude' as const, model: 'm' };
const round = (e: RoleEnv, n: number, sessions: ReviewerSessions) =>
  runReviewRound(e, {
    round: n,
    ctx: prContext(),
    reviewers: [spec, spec],
    analyzer: spec,
    fixedBefore: [],
    sessions,
    ...(n > 1 ? { earlier: [] } : {}),
  });

it('resumes each reviewer its own session in the next round, with the resumed prompt', async () => {
  const calls: Invocation[] = [];
  const e = await env(
    sessionfulAdapter(calls, () => false, approve),
    [],
  );
  const sessions: ReviewerSessions = new Map();
  await round(e, 1, sessions);
  expect(Object.fromEntries(sessions)).toEqual({ 'reviewer-1': expect.any(String), 'reviewer-2': expect.any(String) });
  const firstIds = new Map(sessions);
  const second = await round(e, 2, sessions);
  expect(second.record.agents.map((a) => a.status)).toEqual(['ok', 'ok']);
  const r2 = calls.filter((c) => c.round === 2);
  for (const name of ['reviewer-1', 'reviewer-2']) {
    const [c1, c2] = calls.filter((c) => c.name === name);
    expect(c1!.sessionId).toBeUndefined();
    expect(c2!.sessionId).toBe(firstIds.get(name));
    expect(c2!.stateDir).toBe(c1!.stateDir);
    expect(c1!.prompt).toContain('You are a senior code reviewer');
    expect(c2!.prompt).toContain('You reviewed this PR earlier in this session');
    expect(c2!.prompt).not.toContain('You are a senior code reviewer');
    // The answer format is in the session already: the resumed prompt does not send it again.
    expect(c1!.prompt).toContain('"findings": [');
    expect(c2!.prompt).not.toContain('"findings": [');
    expect(c2!.prompt).toContain('Answer as in your first answer of this session');
  }
  expect(r2).toHaveLength(2);
});

it('starts a fresh session with the whole prompt when a reviewer cannot resume', async () => {
  const calls: Invocation[] = [];
  const log: string[] = [];
  let forgetNow = false;
  const e = await env(
    sessionfulAdapter(calls, () => forgetNow, approve),
    log,
  );
  const sessions: ReviewerSessions = new Map();
  await round(e, 1, sessions);
  const firstIds = [...sessions.values()];
  forgetNow = true;
  const second = await round(e, 2, sessions);
  // Both reviewers succeeded, each in one record for its two calls.
  expect(second.record.agents.map((a) => [a.name, a.status])).toEqual([
    ['reviewer-1', 'ok'],
    ['reviewer-2', 'ok'],
  ]);
  const r2 = calls.filter((c) => c.round === 2);
  expect(r2).toHaveLength(4);
  const fresh = r2.filter((c) => !c.sessionId);
  expect(fresh).toHaveLength(2);
  for (const c of fresh) expect(c.prompt).toContain('You are a senior code reviewer');
  expect(log.filter((l) => /could not resume session/.test(l))).toHaveLength(2);
  // The next round resumes the fresh sessions, not the lost ones.
  expect([...sessions.values()]).toEqual(fresh.map(() => expect.any(String)));
  for (const id of sessions.values()) expect(firstIds).not.toContain(id);
});

describe('the later-round part of the prompt', () => {
  const earlier = [
    {
      id: 'BUG-1',
      priority: 'P1' as const,
      category: 'correctness',
      file: 'a.ts',
      line: 1,
      title: 'Off by one',
      fate: 'fixed' as const,
    },
  ];
  const withDelta = (patch: string) =>
    prContext({ delta: { fromSha: 'a'.repeat(40), toSha: 'b'.repeat(40), patch, truncated: false, commits: [] } });
  const prompt = async (patch: string) => {
    const calls: Invocation[] = [];
    const e = await env(
      sessionfulAdapter(calls, () => false, approve),
      [],
    );
    await runReviewRound(e, {
      round: 2,
      ctx: withDelta(patch),
      reviewers: [spec],
      analyzer: spec,
      fixedBefore: [],
      earlier,
    });
    return calls[0]!.prompt;
  };

  it('holds short files: the findings fenced as data, the patch byte-exact', async () => {
    const patch = '--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-x <!-- hidden? no: code --> ```\n+y\n';
    const p = await prompt(patch);
    expect(p).toContain('Copied below: `earlier-findings.json`');
    expect(p).toContain('In the context folder only: (none).');
    expect(p).toContain(patch);
    expect(p).toContain('"title":"Off by one"');
    // The patch's own backticks cannot close its fence.
    expect(p).toContain('````diff\n');
  });

  it(`points at a file only when it would take the copies past ${INLINE_LATER_CHARS} characters`, async () => {
    const p = await prompt(`+${'x'.repeat(INLINE_LATER_CHARS)}\n`);
    expect(p).toContain('A later round');
    expect(p).toContain('In the context folder only: `delta.patch`');
    expect(p).not.toContain('x'.repeat(100));
  });
});
