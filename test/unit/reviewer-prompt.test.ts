// The reviewer's rules for where a finding goes, as a round renders the prompt: a problem is
// anchored where its fix goes, and one whose fix lies outside every hunk on the changed line that
// causes it, naming that code; two problems on one line are two findings when the fix needs a
// change for each; a missing test for a bug one reports goes in that bug's suggestion. A real
// model's notes said the earlier prompt left each to guesswork
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

it('anchors a problem where its fix goes, else on the changed line, naming the unchanged code', async () => {
  const p = await firstRoundPrompt();
  expect(p).toContain('anchor a problem on the lines your fix edits when they are in a hunk of `diff.patch`');
  expect(p).toContain('When the fix goes outside every hunk (code the PR did not touch');
  expect(p).toContain('anchor it on the added or changed line that causes the problem');
  expect(p).toContain('the description names the unchanged code (file, function, line) where it shows');
  expect(p).not.toContain('Report only real problems in the changed code');
});

it('counts findings by the fix: two problems on one line that need their own edits are two findings', async () => {
  const p = (await firstRoundPrompt()).replace(/\s+/g, ' ');
  expect(p).toContain('count by the smallest fix that keeps what the PR set out to do');
  expect(p).toContain('each further logical change it needs is a finding of its own, with its own title, even on the');
});

it("puts a missing test for a reported bug in that bug's suggestion", async () => {
  const p = (await firstRoundPrompt()).replace(/\s+/g, ' ');
  expect(p).toContain(
    "(only the cases that fail because of it: a case that passes on this head is never in it) belongs to that bug's" +
      ' finding: its `suggestion` says which test to add',
  );
  expect(p).toContain('It is not a finding of its own');
});

it('asks for a missing-test finding only where no test runs the changed code', async () => {
  const p = (await firstRoundPrompt()).replace(/\s+/g, ' ');
  expect(p).toContain('Code the PR adds, changes or rewrites that no test exercises yet');
  expect(p).toContain('(more cases for it are no finding either)');
  expect(p).not.toContain('P3 for one more case');
});
