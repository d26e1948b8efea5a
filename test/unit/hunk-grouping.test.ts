// Two reviewers anchoring one bug on different lines of one diff hunk (where the deleted lines
// were, where the comparison is) are one problem; one reviewer's two findings there stay two, and
// places in different hunks or far apart in one stay apart. Hunks come from a real diff text
// (diffLines), and the round is driven with a real registry and two reviewers' answers.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RawFinding } from '../../src/agents/envelope.js';
import { createRegistry } from '../../src/agents/registry.js';
import { NO_USAGE, type AgentAdapter } from '../../src/agents/types.js';
import { diffLines } from '../../src/github/diff-lines.js';
import { groupFindings, normalizeFinding } from '../../src/review/findings.js';
import { runReviewRound } from '../../src/review/round.js';
import { HUNK_WINDOW, LINE_WINDOW, titleSimilarity } from '../../src/review/similarity.js';
import type { RoleEnv } from '../../src/roles/call.js';
import { loadPrompts } from '../../src/roles/prompts.js';
import { prContext, PROMPTS_URL } from '../factories.js';

const FILE = 'src/auth.js';

/** One reviewer's words for the bug: the expiry check deleted, seen from where it was. */
const deletedCheck = (line: number, over: Partial<RawFinding> = {}): RawFinding => ({
  priority: 'P1',
  category: 'correctness',
  file: FILE,
  line,
  title: 'Expiry check removed from token validation',
  description: 'The deleted lines called `isExpired(token)` before `verifySignature(token)`; expired tokens now pass.',
  ...over,
});

/** The other reviewer's words, seen from the comparison that now decides alone. */
const acceptsExpired = (line: number, over: Partial<RawFinding> = {}): RawFinding => ({
  priority: 'P1',
  category: 'correctness',
  file: FILE,
  line,
  title: 'verifySignature result alone decides validity',
  description: 'Only `verifySignature(token)` is compared; `isExpired(token)` is never called, so expired tokens pass.',
  ...over,
});

/**
 * A unified diff of FILE with one hunk per [start, newLines]: each hunk deletes a line and keeps
 * `newLines` lines of the head, so its new-file range is [start, start + newLines - 1].
 */
function diffWith(...hunks: [number, number][]): string {
  const head = [`diff --git a/${FILE} b/${FILE}`, `--- a/${FILE}`, `+++ b/${FILE}`];
  const body = hunks.flatMap(([start, n]) => [
    `@@ -${start},${n + 1} +${start},${n} @@`,
    '-  if (isExpired(token)) return false;',
    ...Array.from({ length: n }, (_, i) => ` line ${start + i}`),
  ]);
  return [...head, ...body, ''].join('\n');
}

const ONE_HUNK = diffLines(diffWith([395, 36])); // 395..430
const TWO_HUNKS = diffLines(diffWith([395, 10], [408, 13])); // 395..404 and 408..420

function grouped(hunks: ReturnType<typeof diffLines> | undefined, ...byReviewer: [string, RawFinding][]) {
  return groupFindings(
    byReviewer.map(([name, f]) => normalizeFinding(f, name)),
    hunks,
  );
}

describe('findings of two reviewers in one diff hunk', () => {
  it('are worded unlike each other: only the content link can join them', () => {
    expect(titleSimilarity(deletedCheck(1).title, acceptsExpired(1).title)).toBeLessThan(0.5);
    expect([LINE_WINDOW, HUNK_WINDOW]).toEqual([3, 12]);
    expect([...ONE_HUNK.get(FILE)!]).toEqual([[395, 430]]);
    expect([...TWO_HUNKS.get(FILE)!]).toEqual([
      [395, 404],
      [408, 420],
    ]);
  });

  it('8 lines apart in one hunk are one problem reported by both', () => {
    const out = grouped(ONE_HUNK, ['reviewer-1', deletedCheck(402)], ['reviewer-2', acceptsExpired(410)]);
    expect(out).toHaveLength(1);
    expect(out[0]!.reportedBy).toEqual(['reviewer-1', 'reviewer-2']);
    expect(out[0]!.members?.map((m) => [m.reviewer, m.line])).toEqual([
      ['reviewer-1', 402],
      ['reviewer-2', 410],
    ]);
    // Either order of the reviewers.
    const swapped = grouped(ONE_HUNK, ['reviewer-1', acceptsExpired(410)], ['reviewer-2', deletedCheck(402)]);
    expect(swapped).toHaveLength(1);
  });

  it('meet up to HUNK_WINDOW lines from the end of one range to the start of the other', () => {
    // Lines 410..414 inside the hunk 395..430; the other finding one line, before or after.
    const range = { line: 410, endLine: 414 };
    const at = (line: number) =>
      grouped(ONE_HUNK, ['reviewer-1', deletedCheck(410, range)], ['reviewer-2', acceptsExpired(line)]).length;
    expect(at(414 + HUNK_WINDOW)).toBe(1);
    expect(at(414 + HUNK_WINDOW + 1)).toBe(2);
    expect(at(410 - HUNK_WINDOW)).toBe(1);
    expect(at(410 - HUNK_WINDOW - 1)).toBe(2);
  });

  it('in two different hunks stay two problems', () => {
    const pair: [string, RawFinding][] = [
      ['reviewer-1', deletedCheck(402)],
      ['reviewer-2', acceptsExpired(410)],
    ];
    expect(grouped(TWO_HUNKS, ...pair)).toHaveLength(2);
    // The same pair with both lines in one hunk is one: only the hunks differ.
    expect(grouped(ONE_HUNK, ...pair)).toHaveLength(1);
  });

  it('a range reaching out of its hunk does not meet through it', () => {
    const hunk = diffLines(diffWith([402, 29])); // 402..430
    const from = (line: number) =>
      grouped(hunk, ['reviewer-1', deletedCheck(line, { endLine: 404 })], ['reviewer-2', acceptsExpired(414)]);
    // 398..404 starts before the hunk: not inside it, and 10 lines from 414.
    expect(from(398)).toHaveLength(2);
    // 402..404 lies inside it: the same 10 lines meet.
    expect(from(402)).toHaveLength(1);
  });

  it('20 lines apart in one hunk stay two problems', () => {
    const far = grouped(ONE_HUNK, ['reviewer-1', deletedCheck(402)], ['reviewer-2', acceptsExpired(422)]);
    expect(far).toHaveLength(2);
    const near = grouped(ONE_HUNK, ['reviewer-1', deletedCheck(402)], ['reviewer-2', acceptsExpired(414)]);
    expect(near).toHaveLength(1);
  });

  it("one reviewer's own two findings 8 lines apart in one hunk stay two (it may report two bugs)", () => {
    const own = grouped(ONE_HUNK, ['reviewer-1', deletedCheck(402)], ['reviewer-1', acceptsExpired(410)]);
    expect(own).toHaveLength(2);
    expect(own.every((f) => f.reportedBy.length === 1 && f.reportedBy[0] === 'reviewer-1')).toBe(true);
    // Two reviewers with the same two texts are one problem.
    expect(grouped(ONE_HUNK, ['reviewer-1', deletedCheck(402)], ['reviewer-2', acceptsExpired(410)])).toHaveLength(1);
  });

  it('without the hunks, group as near lines only', () => {
    const pair: [string, RawFinding][] = [
      ['reviewer-1', deletedCheck(402)],
      ['reviewer-2', acceptsExpired(410)],
    ];
    expect(grouped(undefined, ...pair)).toHaveLength(2);
    expect(grouped(ONE_HUNK, ...pair)).toHaveLength(1);
    // Near lines meet with or without hunks.
    expect(grouped(undefined, ['reviewer-1', deletedCheck(402)], ['reviewer-2', acceptsExpired(405)])).toHaveLength(1);
  });

  it('a finding with several places meets through the place inside the hunk', () => {
    const spread = deletedCheck(402, {
      locations: [
        { file: FILE, line: 402 },
        { file: 'src/session.js', line: 50 },
      ],
    });
    const pair: [string, RawFinding][] = [
      ['reviewer-1', spread],
      ['reviewer-2', acceptsExpired(410)],
    ];
    const out = grouped(ONE_HUNK, ...pair);
    expect(out).toHaveLength(1);
    expect(out[0]!.reportedBy).toEqual(['reviewer-1', 'reviewer-2']);
    expect(grouped(undefined, ...pair)).toHaveLength(2);
    // The other reviewer's line in the hunk is the same place, not a third one the fixer would see.
    expect(out[0]!.locations?.map((p) => `${p.file}:${p.line}`)).toEqual([`${FILE}:402`, 'src/session.js:50']);
  });
});

describe('a review round', () => {
  let scratch: string;
  beforeEach(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'hunk-grouping-'));
  });
  afterEach(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  /** Two reviewers (models m1, m2), each answering with its own finding, on a PR with `diff`. */
  async function round(diff: string) {
    const answers: Record<string, RawFinding> = { m1: deletedCheck(402), m2: acceptsExpired(410) };
    const claude: AgentAdapter = {
      kind: 'claude',
      async run(inv) {
        const answer = { conclusion: 'request_changes', findings: [answers[inv.model]!], fullReport: 'r' };
        const text = `BEGIN_JSON\n${JSON.stringify(answer)}\nEND_JSON`;
        return { text, model: inv.model, sessionId: null, usage: NO_USAGE, durationMs: 1 };
      },
    };
    const env: RoleEnv = {
      registry: createRegistry({ adapters: { claude } }),
      prompts: await loadPrompts(PROMPTS_URL),
      workDir: scratch,
      scratchDir: scratch,
      timeoutMs: 10_000,
    };
    const files = [{ filename: FILE, status: 'modified' as const, additions: 0, deletions: 1 }];
    const reviewers = [
      { agent: 'claude' as const, model: 'm1' },
      { agent: 'claude' as const, model: 'm2' },
    ];
    const ctx = prContext({ files, diff });
    return runReviewRound(env, { round: 1, ctx, reviewers, analyzer: reviewers[0]!, fixedBefore: [] });
  }

  it("groups two reviewers' findings in one hunk of the PR's diff, not across two hunks", async () => {
    const one = await round(diffWith([395, 36]));
    expect(one.failure).toBeNull();
    expect(one.record.findings.map((f) => [f.line, f.reportedBy])).toEqual([[402, ['reviewer-1', 'reviewer-2']]]);
    expect(one.record.counts.p1).toBe(1);
    const two = await round(diffWith([395, 10], [408, 13]));
    expect(two.record.findings).toHaveLength(2);
    expect(two.record.counts.p1).toBe(2);
  });
});
