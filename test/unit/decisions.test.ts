// A choice only the maintainers can make, through one real review round (a real registry and
// in-memory adapters) and the loop: who can make a finding a decision, and what an open one does.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRegistry } from '../../src/agents/registry.js';
import { NO_USAGE, type AgentAdapter, type AgentKind, type AgentSpec } from '../../src/agents/types.js';
import { buildFixPayload } from '../../src/fix/payload.js';
import { loadPrompts } from '../../src/roles/prompts.js';
import type { RoleEnv } from '../../src/roles/call.js';
import { runReviewRound } from '../../src/review/round.js';
import type { KnownDecision } from '../../src/review/decisions.js';
import { fingerprint } from '../../src/review/stuck.js';
import { finding, prContext, PROMPTS_URL } from '../factories.js';

const ASK = {
  question: 'The PR now rejects keys with dots, which 2.3.0 accepted: may a patch release do that?',
  options: ['Keep rejecting them and note it in the changelog', 'Accept them again with a deprecation warning'],
};
const raw = (priority: string, decision?: object) => ({
  priority,
  category: 'correctness',
  file: 'src/math.js',
  line: 2,
  title: 'Keys with dots are rejected now',
  description: 'A behaviour change in a patch release.',
  ...(decision ? { decision } : {}),
});
const envelope = (findings: object[]) =>
  `BEGIN_JSON\n${JSON.stringify({ conclusion: 'request_changes', findings, fullReport: 'r' })}\nEND_JSON`;

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'decisions-'));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const PANEL: AgentSpec[] = [
  { agent: 'claude', model: 'claude-sonnet-4-5' },
  { agent: 'codex', model: 'gpt-5-codex' },
  { agent: 'gemini', model: 'gemini-2.5-pro' },
];

/** One review round where each reviewer (by CLI) answers the given findings. */
async function reviewed(
  answers: Partial<Record<AgentKind, object[]>>,
  more: { decisions?: KnownDecision[]; fixedBefore?: ReturnType<typeof fingerprint>[] } = {},
) {
  const adapter = (kind: AgentKind): AgentAdapter => ({
    kind,
    async run(inv) {
      return { text: envelope(answers[kind] ?? []), model: inv.model, sessionId: null, usage: NO_USAGE, durationMs: 1 };
    },
  });
  const env: RoleEnv = {
    registry: createRegistry({
      adapters: { claude: adapter('claude'), codex: adapter('codex'), gemini: adapter('gemini') },
    }),
    prompts: await loadPrompts(PROMPTS_URL),
    workDir: scratch,
    scratchDir: scratch,
    timeoutMs: 10_000,
  };
  const plan = { round: 2, ctx: prContext(), reviewers: PANEL, analyzer: PANEL[0]!, fixedBefore: [], ...more };
  return runReviewRound(env, plan);
}

describe('who makes a finding a decision', () => {
  it('most of the reviewers who reported a P1 mark it: a decision, not handed to the fixer', async () => {
    const { record, openedDecisions } = await reviewed({
      claude: [raw('P1', ASK)],
      codex: [raw('P1', ASK)],
      gemini: [raw('P1')],
    });
    expect(record.findings).toHaveLength(1);
    expect(record.findings[0]!.decision).toMatchObject({ ...ASK, by: 'reviewers' });
    expect(openedDecisions?.map((d) => d.finding.id)).toEqual([record.findings[0]!.id]);
    expect(buildFixPayload(7, 2, record.findings).issuesToFix).toEqual([]);
    // It still counts for fail-on: an open question is an open finding.
    expect(record.counts.p1).toBe(1);
  });

  it('a minority marking a P1 leaves it a finding to fix', async () => {
    const { record } = await reviewed({ claude: [raw('P1', ASK)], codex: [raw('P1')], gemini: [raw('P1')] });
    expect(record.findings[0]!.decision).toBeUndefined();
    expect(buildFixPayload(7, 2, record.findings).issuesToFix).toHaveLength(1);
  });

  it('one reviewer marking a P0 it alone reported is refused: a P0 is never a question on one word', async () => {
    const { record } = await reviewed({ claude: [raw('P0', ASK)] });
    expect(record.findings[0]!.decision).toBeUndefined();
    expect(record.refusedDecisions).toEqual([
      expect.objectContaining({ why: expect.stringContaining('1 of 1 reviewer(s) marked it') }),
    ]);
    expect(buildFixPayload(7, 2, record.findings).issuesToFix).toHaveLength(1);
  });

  it('two of three reviewers marking a P0 make it a decision', async () => {
    const { record } = await reviewed({ claude: [raw('P0', ASK)], codex: [raw('P0', ASK)], gemini: [raw('P0')] });
    expect(record.findings[0]!.decision?.by).toBe('reviewers');
    expect(record.refusedDecisions).toBeUndefined();
  });

  it('an open decision reported again is the decision, never stuck, even when it was fixed before', async () => {
    const f = finding({ title: 'Keys with dots are rejected now', line: 2 });
    const known: KnownDecision = { ...ASK, by: 'fixer', finding: { ...f, suggestion: null } };
    const { record } = await reviewed({ codex: [raw('P1')] }, { decisions: [known], fixedBefore: [fingerprint(f)] });
    expect(record.stuck).toEqual([]);
    expect(record.findings[0]!.decision).toMatchObject({ by: 'fixer', question: ASK.question });
    expect(fingerprint(record.findings[0]!).title).toBe(f.title);
  });
});
