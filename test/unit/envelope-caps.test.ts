// Every field of an agent's envelope has a length cap: an oversize string is cut with a marker,
// an oversize list keeps its first (for findings: its most severe) items.
import { describe, expect, it } from 'vitest';
import {
  analyzerResultSchema,
  confirmResultSchema,
  findingSchema,
  fixResultSchema,
  gateResultSchema,
  MAX_CATEGORY_CHARS,
  MAX_FINDINGS,
  MAX_ID_CHARS,
  MAX_LIST_ITEMS,
  MAX_PATH_CHARS,
  MAX_REPORT_CHARS,
  MAX_TEXT_CHARS,
  MAX_TITLE_CHARS,
  parseEnvelope,
  reviewerResultSchema,
  TRUNCATED_MARK,
} from '../../src/agents/envelope.js';

const envelope = (value: unknown) => `BEGIN_JSON\n${JSON.stringify(value)}\nEND_JSON`;
// Characters that grow when escaped, and emoji (two UTF-16 units each).
const hostile = (n: number) => '🧨-->"\\/'.repeat(Math.ceil(n / 8)).slice(0, n);
// Built once: the lists below repeat them thousands of times.
const LONG = hostile(5_000);
const HUGE = hostile(100_000);
const finding = (over: Record<string, unknown> = {}) => ({
  priority: 'P2',
  category: 'correctness',
  file: 'src/a.ts',
  line: 1,
  title: 'A bug',
  ...over,
});

function expectCut(value: string | null | undefined, max: number): void {
  expect(value!.length).toBeLessThanOrEqual(max);
  expect(value!.endsWith(TRUNCATED_MARK)).toBe(true);
  // Never half an emoji.
  expect(value).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
}

describe('envelope caps', () => {
  it('are generous for real answers', () => {
    expect(MAX_PATH_CHARS).toBeGreaterThanOrEqual(1_000);
    expect(MAX_TITLE_CHARS).toBeGreaterThanOrEqual(200);
    expect(MAX_TEXT_CHARS).toBeGreaterThanOrEqual(10_000);
    expect(MAX_FINDINGS).toBeGreaterThanOrEqual(100);
  });

  it('leave a normal finding exactly as it was', () => {
    const f = finding({ description: 'Off by one.', suggestion: 'Use <=.', id: 'BUG-1a2b3c4d' });
    expect(findingSchema.parse(f)).toEqual(f);
  });

  it('cut every oversize string of a finding, with a marker', () => {
    const f = findingSchema.parse(
      finding({
        id: hostile(10_000),
        category: hostile(10_000),
        file: hostile(10_000),
        title: hostile(100_000),
        description: hostile(1_000_000),
        suggestion: hostile(1_000_000),
        source: { type: 'agent', name: hostile(10_000), reviewId: hostile(10_000), timestamp: hostile(10_000) },
      }),
    );
    expectCut(f.id, MAX_ID_CHARS);
    expectCut(f.category, MAX_CATEGORY_CHARS);
    expectCut(f.file, MAX_PATH_CHARS);
    expectCut(f.title, MAX_TITLE_CHARS);
    expectCut(f.description, MAX_TEXT_CHARS);
    expectCut(f.suggestion, MAX_TEXT_CHARS);
    expectCut(f.source!.name, MAX_ID_CHARS);
    expectCut(String(f.source!.reviewId), MAX_ID_CHARS);
    expectCut(f.source!.timestamp, MAX_ID_CHARS);
  });

  it('keep the most severe findings of an oversize list, in their order', () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      finding({ title: `finding ${i}`, priority: i % 1000 === 999 ? 'P0' : 'P3' }),
    );
    const answer = envelope({ conclusion: 'request_changes', findings: many, fullReport: hostile(1_000_000) });
    const r = parseEnvelope(answer, reviewerResultSchema);
    expect(r.findings).toHaveLength(MAX_FINDINGS);
    const p0 = r.findings.filter((f) => f.priority === 'P0').map((f) => f.title);
    expect(p0).toEqual(Array.from({ length: 10 }, (_, i) => `finding ${i * 1000 + 999}`));
    expect(r.findings.indexOf(r.findings.find((f) => f.priority === 'P0')!)).toBeGreaterThan(0);
    expectCut(r.fullReport, MAX_REPORT_CHARS);
    const named = parseEnvelope(envelope({ conclusion: 'approve', findings: [], agent: LONG }), reviewerResultSchema);
    expectCut(named.agent, MAX_ID_CHARS);
  });

  it('cap the analyzer: pending issues, logins and report', () => {
    const r = analyzerResultSchema.parse({
      pendingIssues: Array.from({ length: 5_000 }, (_, i) => finding({ title: `t${i}` })),
      reviewState: {
        hasChangesRequested: true,
        changesRequestedBy: Array.from({ length: 5_000 }, () => ({ login: LONG, association: LONG })),
      },
      fullReport: hostile(500_000),
    });
    expect(r.pendingIssues).toHaveLength(MAX_FINDINGS);
    expect(r.reviewState!.changesRequestedBy).toHaveLength(MAX_LIST_ITEMS);
    expectCut(r.reviewState!.changesRequestedBy[0]!.login, MAX_ID_CHARS);
    expectCut(r.fullReport, MAX_REPORT_CHARS);
  });

  it('cap the fixer: ids, descriptions, reasons, commits', () => {
    const r = fixResultSchema.parse({
      fixedIssues: Array.from({ length: 5_000 }, () => ({ findingId: LONG, commitSha: LONG, description: HUGE })),
      rejectedIssues: [{ findingId: 'BUG-1', reason: HUGE }],
      commits: Array.from({ length: 5_000 }, () => ({ sha: LONG, message: HUGE })),
    });
    expect(r.fixedIssues).toHaveLength(MAX_LIST_ITEMS);
    expect(r.commits).toHaveLength(MAX_LIST_ITEMS);
    expectCut(r.fixedIssues[0]!.findingId, MAX_ID_CHARS);
    expectCut(r.fixedIssues[0]!.commitSha, MAX_ID_CHARS);
    expectCut(r.fixedIssues[0]!.description, MAX_TEXT_CHARS);
    expectCut(r.rejectedIssues[0]!.reason, MAX_TEXT_CHARS);
    expectCut(r.commits[0]!.sha, MAX_ID_CHARS);
    expectCut(r.commits[0]!.message, MAX_TEXT_CHARS);
  });

  it('cap the gate and the confirmer', () => {
    const requestedChanges = Array.from({ length: 5_000 }, () => HUGE);
    const g = gateResultSchema.parse({ decision: 'request_changes', requestedChanges, summary: HUGE });
    expect(g.requestedChanges).toHaveLength(MAX_LIST_ITEMS);
    expectCut(g.requestedChanges[0], MAX_TEXT_CHARS);
    expectCut(g.summary, MAX_TEXT_CHARS);
    const c = confirmResultSchema.parse({ findingId: LONG, confirmed: true, testFile: LONG, explanation: HUGE });
    expectCut(c.findingId, MAX_ID_CHARS);
    expectCut(c.testFile, MAX_PATH_CHARS);
    expectCut(c.explanation, MAX_TEXT_CHARS);
  });

  it('still refuses an empty title or category', () => {
    expect(findingSchema.safeParse(finding({ title: '' })).success).toBe(false);
    expect(findingSchema.safeParse(finding({ category: '' })).success).toBe(false);
  });
});

describe('envelope extraction on long answers', () => {
  // The answer is the agent's; a regex scan of it once backtracked through every split of a long
  // run of blanks (cubic). A blocked event loop fires no timeout: the tests check the results.
  const blanks = ' '.repeat(200_000);
  const ok = { conclusion: 'approve', findings: [] };

  it('reads the last envelope whatever blanks surround its body or its code fence', () => {
    const body = `BEGIN_JSON${blanks}\`\`\`json${blanks}${JSON.stringify(ok)}${blanks}\`\`\`${blanks}END_JSON`;
    expect(parseEnvelope(`${envelope({ conclusion: 'x' })}\n${body}`, reviewerResultSchema)).toMatchObject(ok);
  });

  it('says there is no envelope after a BEGIN_JSON with only blanks, or a run of them, and no end', () => {
    expect(() => parseEnvelope(`BEGIN_JSON${blanks}`, reviewerResultSchema)).toThrow(/no BEGIN_JSON/);
    expect(() => parseEnvelope('BEGIN_JSON'.repeat(20_000), reviewerResultSchema)).toThrow(/no BEGIN_JSON/);
  });

  it('says the JSON is not valid when something other than a fence ends the body', () => {
    const answer = `BEGIN_JSON ${JSON.stringify(ok)}${blanks}x END_JSON`;
    expect(() => parseEnvelope(answer, reviewerResultSchema)).toThrow(/not valid JSON/);
  });
});
