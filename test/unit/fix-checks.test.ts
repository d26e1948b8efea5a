// Who checked each fix, through one real review round (a real registry, in-memory adapters per
// CLI): a fix counts as checked only by a reviewer on a model that did not write it, whichever CLI
// runs that model; the reviewer on the fixer's model is told which fixes are its own.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRegistry } from '../../src/agents/registry.js';
import {
  NO_USAGE,
  type AgentAdapter,
  type AgentKind,
  type AgentSpec,
  type Invocation,
} from '../../src/agents/types.js';
import { loadPrompts } from '../../src/roles/prompts.js';
import { runReviewRound } from '../../src/review/round.js';
import type { EarlierFinding } from '../../src/review/earlier.js';
import { fingerprint } from '../../src/review/stuck.js';
import type { RoleEnv } from '../../src/roles/call.js';
import { finding, prContext, PROMPTS_URL } from '../factories.js';

const FIX = '9c1185a5c5e9fc54612808977ee8f548b2258d31';
const BUG = finding();
const envelope = (findings: object[]) =>
  `BEGIN_JSON\n${JSON.stringify({ conclusion: 'approve', findings, fullReport: 'r' })}\nEND_JSON`;
const SONNET: AgentSpec = { agent: 'claude', model: 'claude-sonnet-4-5' };
const SONNET_BY_OPENCODE: AgentSpec = { agent: 'opencode', model: 'anthropic/claude-sonnet-4-5' };
const CODEX: AgentSpec = { agent: 'codex', model: 'gpt-5-codex' };

/** The bug, fixed in FIX by `fixedBy`, as the round after the fix is told of it. */
const pending = (fixedBy: string[]): EarlierFinding => ({
  id: BUG.id,
  priority: BUG.priority,
  category: BUG.category,
  file: BUG.file,
  line: BUG.line,
  title: BUG.title,
  description: BUG.description,
  suggestion: BUG.suggestion,
  fate: 'fixed',
  fixedIn: FIX,
  fixedBy,
});

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'fix-checks-'));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Per CLI, what its reviewer answers: an envelope, or an error it fails with. */
type Answers = Partial<Record<AgentKind, string | Error>>;

async function roundAfterFix(reviewers: AgentSpec[], answers: Answers, fixedBy: string[]) {
  const calls: Invocation[] = [];
  const adapter = (kind: AgentKind): AgentAdapter => ({
    kind,
    async run(inv) {
      calls.push(inv);
      const answer = answers[kind] ?? envelope([]);
      if (answer instanceof Error) throw answer;
      return { text: answer, model: inv.model, sessionId: null, usage: NO_USAGE, durationMs: 1 };
    },
  });
  const kinds: AgentKind[] = ['claude', 'codex', 'opencode'];
  const env: RoleEnv = {
    registry: createRegistry({ adapters: Object.fromEntries(kinds.map((k) => [k, adapter(k)])) }),
    prompts: await loadPrompts(PROMPTS_URL),
    workDir: scratch,
    scratchDir: scratch,
    timeoutMs: 10_000,
  };
  const earlier = [pending(fixedBy)];
  const plan = {
    round: 2,
    ctx: prContext(),
    reviewers,
    analyzer: reviewers[0]!,
    fixedBefore: [fingerprint(BUG)],
    earlier,
    pendingFixes: earlier,
  };
  const { record } = await runReviewRound(env, plan);
  const promptOf = (name: string) => calls.find((c) => c.name === name)!.prompt;
  return { checks: record.fixChecks ?? [], promptOf, record };
}

describe('who checked a fix', () => {
  it('another model that found nothing checks it; the fixer-model reviewer is told it is its own', async () => {
    const { checks, promptOf } = await roundAfterFix([SONNET, CODEX], {}, ['claude:claude-sonnet-4-5']);
    expect(checks.map((c) => [c.finding.id, c.state, c.by])).toEqual([
      [BUG.id, 'checked', ['reviewer-2 (codex:gpt-5-codex)']],
    ]);
    expect(promptOf('reviewer-1')).toContain('## Fixes your model wrote');
    // Named by id only: earlier-findings.json holds its words once.
    expect(promptOf('reviewer-1')).toContain(`The model you run wrote the fixes of \`${BUG.id}\``);
    expect(promptOf('reviewer-2')).not.toContain('## Fixes your model wrote');
  });

  it('with no other model on the panel (the same model via another CLI), only the fixer model checked it', async () => {
    const { checks, promptOf } = await roundAfterFix([SONNET, SONNET_BY_OPENCODE], {}, ['claude:claude-sonnet-4-5']);
    expect(checks.map((c) => [c.state, c.by])).toEqual([
      ['own-model', ['reviewer-1 (claude:claude-sonnet-4-5)', 'reviewer-2 (opencode:anthropic/claude-sonnet-4-5)']],
    ]);
    // Both run the fixer's model: both are told the fix is theirs.
    expect(promptOf('reviewer-2')).toContain('## Fixes your model wrote');
  });

  it("the other model's reviewer failing leaves it unchecked, not checked by the fixer model's silence", async () => {
    const answers = { codex: new Error('codex timed out after 20 minutes') };
    const { checks, record } = await roundAfterFix([SONNET, CODEX], answers, ['claude:claude-sonnet-4-5']);
    expect(record.partial).toBe(true);
    expect(checks).toHaveLength(1);
    expect(checks[0]!.state).toBe('unchecked');
    expect(checks[0]!.by[0]).toMatch(/^reviewer-2 \(codex:gpt-5-codex\): .*timed out/);
    // Unchecked is not a finding: nothing goes back to the fixer, nothing blocks.
    expect(record.findings).toEqual([]);
  });

  it('a fix a fallback wrote is checked by the reviewer on the fixer’s own model', async () => {
    const { checks, promptOf } = await roundAfterFix([SONNET, CODEX], {}, ['codex:gpt-5-codex']);
    expect(checks.map((c) => [c.state, c.by])).toEqual([['checked', ['reviewer-1 (claude:claude-sonnet-4-5)']]]);
    expect(promptOf('reviewer-2')).toContain('## Fixes your model wrote');
    expect(promptOf('reviewer-1')).not.toContain('## Fixes your model wrote');
  });

  it('a fix reported again came back (stuck), whoever checked it', async () => {
    const again = { ...BUG, category: BUG.category, title: BUG.title, description: 'still subtracts' };
    const answers = { codex: envelope([{ ...again, priority: 'P1', file: BUG.file, line: BUG.line }]) };
    const { checks, record } = await roundAfterFix([SONNET, CODEX], answers, ['claude:claude-sonnet-4-5']);
    expect(checks.map((c) => c.state)).toEqual(['came-back']);
    expect(record.stuck).toHaveLength(1);
  });
});
