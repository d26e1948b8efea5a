import { describe, expect, it } from 'vitest';
import { renderReviewReport } from '../../src/report/markdown.js';
import { MARKER, composeComment, decodeState } from '../../src/report/state.js';
import {
  SHOP_HEAD as HEAD,
  shopAgent as agent,
  shopReportCtx as ctx,
  shopFinding as finding,
  shopReviewRecord as reviewRecord,
} from '../factories.js';
import { liveProblems, render } from './markdown-render.js';

const ZWSP = '\u200b';
const rowOf = (md: string, name: string) => md.split('\n').find((l) => l.startsWith(`| ${name} |`)) ?? '';

describe('renderReviewReport', () => {
  it('has the round, the max rounds and the consensus in the title, and the counts', () => {
    const md = renderReviewReport(reviewRecord({ round: 2 }), ctx);
    expect(md.split('\n')[0]).toBe('## 🔍 Review round 2 of 3 · 🔴 needs major work');
    expect(md).toContain('| P0 | P1 | P2 | P3 |\n| --- | --- | --- | --- |\n| 1 | 0 | 1 | 0 |');
    expect(md).toContain(`[\`${HEAD.slice(0, 7)}\`](https://github.com/octo-org/shop-api/commit/${HEAD})`);
  });

  it('lists every reviewer with model, status, time, tokens and cost', () => {
    const md = renderReviewReport(reviewRecord(), ctx);
    expect(rowOf(md, 'reviewer-1')).toBe(
      '| reviewer-1 | claude | `claude-sonnet-4-5` | `claude-sonnet-4-5-20250929` | ✅ | 1m 35s | 48,210 / 2,315 | $0.18 |',
    );
    expect(rowOf(md, 'reviewer-2')).toMatch(/\| `gpt-5-codex` \| ✅ \| .* \| 30,000 \/ 1,200 \| — \|$/);
    expect(rowOf(md, 'reviewer-3')).toContain('_not reported by CLI_');
    expect(rowOf(md, 'reviewer-3')).toMatch(/\| — \| — \|$/);
  });

  it('flags a model mismatch and shows a failed reviewer with its error', () => {
    const rec = reviewRecord({
      partial: true,
      agents: [
        agent({ modelRequested: 'claude-opus-4-1', modelReported: 'claude-opus-4-8' }),
        agent({
          name: 'reviewer-2',
          status: 'failed',
          error: 'codex exited with code 1: rate | limited',
          modelReported: null,
        }),
      ],
    });
    const md = renderReviewReport(rec, ctx);
    expect(rowOf(md, 'reviewer-1')).toContain('`claude-opus-4-1` | `claude-opus-4-8` ⚠️ mismatch');
    expect(rowOf(md, 'reviewer-2')).toContain('❌ codex exited with code 1: rate \\| limited');
    expect(md).toContain('Partial round');
  });

  it('links each finding to its file and line at the head commit, with agreement and category', () => {
    const md = renderReviewReport(reviewRecord(), ctx);
    expect(md).toContain(
      `[\`src/db/orders.ts:88\`](https://github.com/octo-org/shop-api/blob/${HEAD}/src/db/orders.ts#L88) · 2/3 reviewers (reviewer-1, reviewer-3) · category security`,
    );
    expect(md).toContain('1/3 reviewers (reviewer-2)');
    expect(md).toContain('**`SEC-1a2b3c4d`** · SQL query built by string concatenation');
    expect(md).toContain('**Suggestion:**\n\nUse a parameterised query');
  });

  it('groups findings by priority, P0 first', () => {
    const rec = reviewRecord({
      findings: [
        finding({ id: 'DOC-00000003', priority: 'P3', title: 'Typo' }),
        finding({ id: 'QUAL-00000002', priority: 'P2', title: 'Naming' }),
        finding({ id: 'SEC-00000000', priority: 'P0', title: 'Injection' }),
      ],
    });
    const md = renderReviewReport(rec, ctx);
    const p0 = md.indexOf('P0 · blocking (1)');
    const p2 = md.indexOf('P2 · important (1)');
    const p3 = md.indexOf('P3 · suggestion (1)');
    expect(p0).toBeGreaterThan(0);
    expect(p0).toBeLessThan(md.indexOf('SEC-00000000'));
    expect(md.indexOf('SEC-00000000')).toBeLessThan(p2);
    expect(p2).toBeLessThan(p3);
    expect(md).not.toContain('P1 · critical');
  });

  it('collapses a long description and encodes awkward file paths in the link', () => {
    const rec = reviewRecord({
      findings: [finding({ file: 'docs/my file (v2).md', line: null, description: 'long text. '.repeat(100) })],
    });
    const md = renderReviewReport(rec, ctx);
    expect(md).toContain('<details><summary>Description</summary>');
    expect(md).toContain(`/blob/${HEAD}/docs/my%20file%20%28v2%29.md)`);
  });

  it('lists stuck findings apart, and human threads as needing a human', () => {
    const stuck = finding({ id: 'PERF-deadbeef', priority: 'P1', title: 'N+1 query in order list', stuck: true });
    const thread = finding({
      id: 'THREAD-2468013579',
      priority: 'P1',
      category: 'review-thread',
      title: 'Please keep the old endpoint until v3',
      source: { type: 'human', name: 'maintainer', reviewId: '77' },
      reportedBy: [],
    });
    const rec = reviewRecord({ findings: [finding(), stuck, thread], stuck: [stuck], unresolvedThreads: 1 });
    const md = renderReviewReport(rec, ctx);
    const stuckAt = md.indexOf('### 🔁 Stuck findings');
    const threadsAt = md.indexOf('### 💬 Unresolved review threads');
    expect(stuckAt).toBeGreaterThan(0);
    expect(md.slice(stuckAt, threadsAt)).toContain('- P1 `PERF-deadbeef` · N+1 query in order list');
    expect(md.indexOf('PERF-deadbeef')).toBe(md.lastIndexOf('PERF-deadbeef'));
    expect(md.slice(threadsAt)).toContain('need a human');
    expect(md.slice(threadsAt)).toContain('`THREAD-2468013579` · Please keep the old endpoint until v3');
    expect(md.slice(0, stuckAt)).not.toContain('THREAD-2468013579');
  });

  it('warns about truncated threads, names who requested changes, and links the run', () => {
    const rec = reviewRecord({
      consensus: 'request_changes',
      threadsTruncated: true,
      changesRequestedBy: [{ login: 'octocat', association: 'OWNER' }],
    });
    const md = renderReviewReport(rec, ctx);
    expect(md).toContain('more review threads than the action reads');
    expect(md).toContain('**Changes requested by:** octocat (OWNER)');
    expect(md).toContain('[Workflow run](https://github.com/octo-org/shop-api/actions/runs/1234567)');
    expect(renderReviewReport(rec, { ...ctx, runUrl: null })).toContain('Workflow run link unavailable.');
  });

  it('says so when there are no findings, and notes review-only and dry-run modes', () => {
    const rec = reviewRecord({ findings: [], counts: { p0: 0, p1: 0, p2: 0, p3: 0 }, consensus: 'approve' });
    const md = renderReviewReport(rec, { ...ctx, mode: 'review', dryRun: true });
    expect(md).toContain('No findings.');
    expect(md).toContain('Review-only run');
    expect(md).toContain('Dry run');
  });
});

describe('renderReviewReport with hostile agent text', () => {
  const hostile = finding({
    title: '# Owned @octocat <!-- hide --> </details> | cell',
    category: 'sec @team',
    description: [
      '# Fake heading',
      'cc @octo-org/security and @alice, mail bob@example.com',
      '<!-- the rest is hidden',
      '</details>',
      '```js',
      'const x = 1; // unclosed fence',
    ].join('\n'),
    suggestion: 'Remove the comment --> and <img src=x onerror=alert(1)>',
    reportedBy: ['reviewer-1'],
  });
  const md = renderReviewReport(reviewRecord({ findings: [hostile] }), ctx);

  it('never pings anyone', () => {
    expect(md).not.toMatch(/(^|[^\w`])@[A-Za-z0-9]/m);
    expect(md).toContain(`@${ZWSP}octocat`);
    expect(md).toContain(`@${ZWSP}octo-org/security`);
    expect(md).toContain(`bob@${ZWSP}example.com`);
  });

  it('cannot open comments, close our <details>, add headings or leave a fence open', () => {
    expect(md).not.toContain('<!--');
    expect(md).not.toContain('-->');
    expect(md).not.toMatch(/<\/details>/);
    expect(md).not.toMatch(/^#{1,6} (Fake|Owned)/m);
    expect(md).toContain(`${ZWSP}# Fake heading`);
    const fences = md.split('\n').filter((l) => /^ {0,3}```/.test(l));
    expect(fences.length % 2).toBe(0);
    expect(md).toContain('\\| cell');
  });

  it('renders no live construct from agent text under a real CommonMark + GFM parser', () => {
    const html = render(md);
    const ours = ['a', 'h2', 'h3', 'h4', 'hr', 'details', 'summary', 'sub', 'br'];
    expect(liveProblems(html, { allowTags: ours })).toEqual([]);
    expect(html).not.toMatch(/<h\d>[^<]*(?:Fake|Owned)/);
    const hrefs = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);
    for (const href of hrefs) expect(href).toMatch(/^https:\/\/github\.com\/octo-org\/shop-api\//);
  });

  it('still yields one comment with the marker and a decodable state', () => {
    const body = composeComment(md, {
      v: 1,
      kind: 'review',
      headSha: HEAD,
      round: 1,
      runId: '1234567',
      findingIds: [hostile.id],
      fixedIds: [],
      stuckIds: [],
      status: null,
    });
    expect(body.indexOf(MARKER)).toBeGreaterThan(0);
    expect(decodeState(body)?.findingIds).toEqual([hostile.id]);
  });
});
