import { describe, expect, it } from 'vitest';
import { renderFailureReport, renderFinalSummary, renderReviewReport } from '../../src/report/markdown.js';
import { sanitize } from '../../src/security/sanitize.js';
import {
  SHOP_FIX_SHA as FIX_SHA,
  SHOP_HEAD as HEAD,
  shopReportCtx as ctx,
  shopFinding as finding,
  shopFixRecord as fixRecord,
  shopReviewRecord as reviewRecord,
} from '../factories.js';

const HEAD2 = FIX_SHA;

describe('renderFailureReport', () => {
  it('says what failed, that nothing more was done, and links the run', () => {
    const md = renderFailureReport('No reviewer succeeded: reviewer-1 failed (codex exited with code 2).', ctx);
    expect(md.split('\n')[0]).toBe('## ❌ pr-review-loop stopped with a failure');
    expect(md).toContain(
      '**What failed** (PR #42):\n\nNo reviewer succeeded: reviewer-1 failed (codex exited with code 2).',
    );
    expect(md).toContain('no further review, fix or push happens in this run');
    expect(md).toContain('[Workflow run](https://github.com/octo-org/shop-api/actions/runs/1234567)');
  });

  it('puts multi-line errors in a code block and notes a dry run', () => {
    const msg =
      'git push was rejected:\n ! [rejected]        feature -> feature (fetch first)\nerror: failed to push some refs';
    const md = renderFailureReport(msg, { ...ctx, dryRun: true, runUrl: null });
    expect(md).toContain(`\`\`\`text\n${msg}\n\`\`\``);
    expect(md).toContain('Dry run: nothing was posted or pushed.');
    expect(md).toContain('Workflow run link unavailable.');
  });

  it('does not ping people named in the error', () => {
    expect(renderFailureReport('analyzer failed for @octocat', ctx)).toContain('@\u200boctocat');
  });
});

describe('renderFinalSummary', () => {
  const round1 = reviewRecord();
  const round2 = reviewRecord({
    round: 2,
    headSha: HEAD2,
    findings: [finding({ id: 'PERF-deadbeef', priority: 'P1', title: 'N+1 query', stuck: true })],
    stuck: [finding({ id: 'PERF-deadbeef', priority: 'P1', title: 'N+1 query', stuck: true })],
    counts: { p0: 0, p1: 1, p2: 0, p3: 0 },
    consensus: 'request_changes',
  });
  const input = {
    status: 'manual',
    rounds: [
      { review: round1, fix: fixRecord() },
      { review: round2, fix: null },
    ],
    remaining: [
      finding({
        id: 'THREAD-99',
        priority: 'P2',
        title: 'Keep v1 route',
        source: { type: 'human' as const, name: 'maintainer', reviewId: null },
      }),
    ],
    stuck: [finding({ id: 'PERF-deadbeef', priority: 'P1', title: 'N+1 query', file: 'src/orders/list.ts', line: 30 })],
    message: 'Only stuck findings and human threads remain.',
  };

  it('has one table row per round with head, consensus, counts, fix outcome and commit', () => {
    const md = renderFinalSummary(input, ctx);
    expect(md.split('\n')[0]).toBe('## pr-review-loop summary · ✋ Manual resolution required');
    expect(md).toContain('| Round | Head | Consensus | P0 | P1 | P2 | P3 | Fix | Commit |');
    expect(md).toContain(
      `| 1 | [\`3f78685\`](https://github.com/octo-org/shop-api/commit/${HEAD}) | 🔴 needs major work | 1 | 0 | 1 | 0 | pushed | [\`9c1185a\`](https://github.com/octo-org/shop-api/commit/${FIX_SHA}) |`,
    );
    expect(md).toContain(
      `| 2 | [\`9c1185a\`](https://github.com/octo-org/shop-api/commit/${FIX_SHA}) | 🟠 request changes | 0 | 1 | 0 | 0 | no fix | — |`,
    );
    expect(md).toContain('Only stuck findings and human threads remain.');
  });

  it('lists what remains and what is stuck, linked at the last reviewed head', () => {
    const md = renderFinalSummary(input, ctx);
    expect(md).toContain('### Remaining findings (1)\n\n- P2 `THREAD-99` · Keep v1 route');
    expect(md).toContain('review thread, needs a human');
    expect(md).toContain(`(https://github.com/octo-org/shop-api/blob/${HEAD2}/src/orders/list.ts#L30)`);
  });

  it('handles a run with no rounds and an unknown status', () => {
    const md = renderFinalSummary({ status: 'weird-@state', rounds: [], remaining: [], stuck: [], message: '' }, ctx);
    expect(md).toContain('summary · weird-@\u200bstate');
    expect(md).toContain('No review round ran.');
    expect(md).toContain('### Remaining findings (0)\n\nNone.');
    expect(md).not.toContain('Stuck findings');
  });

  it('survives the sanitizer unchanged, like the review report', () => {
    const md = renderFinalSummary(input, ctx);
    expect(sanitize(md)).toBe(md);
    const review = renderReviewReport(reviewRecord(), ctx);
    expect(sanitize(review)).toBe(review);
  });
});
