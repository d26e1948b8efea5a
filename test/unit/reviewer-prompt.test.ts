// The reviewer's rules for where a finding goes, as a round renders the prompt: a problem the
// change causes in code it did not change is anchored on the changed line that causes it and names
// that code; two problems on one line are two findings; a missing test for a bug one reports goes
// in that bug's suggestion. A real model's notes said the earlier prompt left each to guesswork
// ("a redirect two functions away was anchored by guesswork"; a missing test became a second
// finding on the same lines from one reviewer and part of the bug finding from the other).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRegistry } from '../../src/agents/registry.js';
import { NO_USAGE, type Invocation } from '../../src/agents/types.js';
import { loadPrompts } from '../../src/roles/prompts.js';
import { runReviewRound } from '../../src/review/round.js';
import { prContext, PROMPTS_URL } from '../factories.js';

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'reviewer-prompt-'));
});
afterEach(() => rm(scratch, { recursive: true, force: true }));

async function firstRoundPrompt(): Promise<string> {
  const calls: Invocation[] = [];
  const text = `BEGIN_JSON\n${JSON.stringify({ conclusion: 'approve', findings: [], fullReport: 'ok' })}\nEND_JSON`;
  const env = {
    registry: createRegistry({
      adapters: {
        claude: {
          kind: 'claude' as const,
          async run(inv: Invocation) {
            calls.push(inv);
            return { text, model: inv.model, sessionId: null, usage: NO_USAGE, durationMs: 1 };
          },
        },
      },
    }),
    prompts: await loadPrompts(PROMPTS_URL),
    workDir: scratch,
    scratchDir: scratch,
    timeoutMs: 10_000,
  };
  const spec = { agent: 'claude' as const, model: 'm' };
  await runReviewRound(env, { round: 1, ctx: prContext(), reviewers: [spec], analyzer: spec, fixedBefore: [] });
  // One line per sentence part, so a rule is found whatever its line breaks.
  return calls[0]!.prompt.replace(/\s+/g, ' ');
}

it('anchors a problem the change causes on the changed line, and names the unchanged code', async () => {
  const p = await firstRoundPrompt();
  expect(p).toContain('A problem the change causes in code it did not change');
  expect(p).toContain('is anchored on the changed line that causes it');
  expect(p).toContain('its description names the unchanged code (file, function, line)');
  expect(p).not.toContain('Report only real problems in the changed code');
});

it('counts findings by the fix: two problems on one line that need their own edits are two findings', async () => {
  const p = (await firstRoundPrompt()).replace(/\s+/g, ' ');
  expect(p).toContain('symptoms your one edit fixes together are one finding, its description naming each;');
  expect(p).toContain('a problem your fix needs an edit of its own for is a finding of its own, with its own title');
});

it("puts a missing test for a reported bug in that bug's suggestion", async () => {
  const p = (await firstRoundPrompt()).replace(/\s+/g, ' ');
  expect(p).toContain(
    "(the cases that fail because of it) belongs to that bug's finding: its `suggestion` says which test to add",
  );
  expect(p).toContain('It is not a finding of its own');
});
