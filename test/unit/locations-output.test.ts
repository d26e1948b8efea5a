// Where a finding with several places goes: the inline review comments on each place in the diff
// and counts the finding once toward the cap; the report shows it once with its places; the fixer
// gets it once with every place, each path checked like the single one; redaction covers each
// place's replacement.
import { describe, expect, it } from 'vitest';
import { diffLines } from '../../src/github/diff-lines.js';
import { payloadForAgents, buildFixPayload } from '../../src/fix/payload.js';
import { readFindingMark } from '../../src/review/finding-mark.js';
import { inlineComments, placeInline } from '../../src/report/inline-places.js';
import { renderReviewReport } from '../../src/report/markdown.js';
import { redactFinding } from '../../src/review/redact-finding.js';
import type { Finding } from '../../src/domain/findings.js';
import { finding, shopReportCtx, shopReviewRecord } from '../factories.js';

const hunk = (file: string, from: number, n: number) =>
  [
    `diff --git a/${file} b/${file}`,
    `--- a/${file}`,
    `+++ b/${file}`,
    `@@ -${from},${n} +${from},${n} @@`,
    ...Array.from({ length: n }, (_, i) => ` line ${from + i}`),
  ].join('\n');
const LINES = diffLines([hunk('a.js', 1, 10), hunk('b.js', 1, 10), hunk('c.js', 1, 10)].join('\n'));

const SPREAD: Finding = finding({
  id: 'BUG-aaaaaaaa',
  file: 'a.js',
  line: 2,
  endLine: null,
  replacement: 'fix a',
  locations: [
    { file: 'a.js', line: 2, endLine: null, replacement: 'fix a' },
    { file: 'b.js', line: 3, endLine: 4, replacement: 'fix b\nfix b2' },
    { file: 'c.js', line: 50, endLine: null, replacement: 'outside the diff' },
    { file: 'evil/../../etc/passwd', line: 1, endLine: null, replacement: null },
  ],
});
const OTHER = finding({ id: 'QUAL-bbbbbbbb', priority: 'P2', file: 'c.js', line: 5, title: 'Another problem' });

describe('the inline review of a finding with several places', () => {
  it('comments on each place in the diff, each with its own suggestion, and counts the finding once', () => {
    const { chosen, heldBack } = placeInline([SPREAD, OTHER], LINES, { minPriority: 'P3', maxComments: 1 });
    expect(chosen.map((f) => f.id)).toEqual([SPREAD.id]);
    expect(heldBack).toEqual({ below: 0, overCap: 1 });
    const comments = inlineComments(chosen, 2, (t) => t);
    expect(comments.map((c) => [c.path, c.startLine, c.line])).toEqual([
      ['a.js', null, 2],
      ['b.js', 3, 4],
    ]);
    expect(comments[0]!.body).toContain('```suggestion\nfix a\n```');
    expect(comments[1]!.body).toContain('```suggestion\nfix b\nfix b2\n```');
    expect(comments[0]!.body).not.toContain('fix b');
    // Each comment names the other places, and its mark names its own file (a later round finds each thread).
    expect(comments[0]!.body).toContain('also at `b.js:3`, `c.js:50`');
    expect(comments.map((c) => readFindingMark(c.body)?.file)).toEqual(['a.js', 'b.js']);
    expect(comments.map((c) => readFindingMark(c.body)?.id)).toEqual([SPREAD.id, SPREAD.id]);
  });

  it('takes both findings when the cap allows two, whatever their number of places', () => {
    const { chosen } = placeInline([SPREAD, OTHER], LINES, { minPriority: 'P3', maxComments: 2 });
    expect(inlineComments(chosen, 2, (t) => t).map((c) => c.path)).toEqual(['a.js', 'b.js', 'c.js']);
  });
});

describe('the report and the fixer', () => {
  it('the report shows the finding once, listing its places', () => {
    const md = renderReviewReport(
      shopReviewRecord({ findings: [{ ...SPREAD, reportedBy: ['reviewer-1', 'reviewer-2'] }] }),
      shopReportCtx,
    );
    expect(md.split(SPREAD.id)).toHaveLength(2);
    expect(md).toContain('4 places: [`a.js:2`]');
    expect(md).toContain('[`b.js:3`]');
  });

  it("the fixer gets it once, with every place; a path that is not one of the PR's files is fenced", () => {
    const payload = payloadForAgents(buildFixPayload(7, 1, [SPREAD]), new Set(['a.js', 'b.js', 'c.js']));
    expect(payload.issuesToFix).toHaveLength(1);
    const [issue] = payload.issuesToFix;
    // Each place also carries its endLine and the reviewer's fenced replacement (tested where the fixer's data is made).
    expect(issue!.locations!.slice(0, 3).map(({ file, line }) => ({ file, line }))).toEqual([
      { file: 'a.js', line: 2 },
      { file: 'b.js', line: 3 },
      { file: 'c.js', line: 50 },
    ]);
    expect(issue!.locations![3]!.file).not.toBe('evil/../../etc/passwd');
    expect(issue!.locations![3]!.file).toContain('untrusted');
    expect(payloadForAgents(buildFixPayload(7, 1, [OTHER])).issuesToFix[0]).not.toHaveProperty('locations');
  });

  it("redaction covers every place's replacement", () => {
    const secret = 'ghp_' + 'x'.repeat(36);
    const leaky = {
      ...SPREAD,
      locations: SPREAD.locations!.map((p) => ({ ...p, replacement: `token = "${secret}"` })),
    };
    const out = redactFinding(leaky, (t) => t.split(secret).join('[REDACTED]'));
    expect(JSON.stringify(out)).not.toContain(secret);
    expect(out.locations!.map((p) => p.replacement)).toEqual(Array(4).fill('token = "[REDACTED]"'));
  });
});
