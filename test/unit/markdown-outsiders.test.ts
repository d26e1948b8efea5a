// The review report's "comments from outside contributors".
import { describe, expect, it } from 'vitest';
import { renderReviewReport } from '../../src/report/markdown.js';
import { outsidersSection } from '../../src/report/markdown-outsiders.js';
import type { ReportContext } from '../../src/report/format.js';
import { reviewRecord, threadFinding } from '../factories.js';

const ctx: ReportContext = {
  serverUrl: 'https://github.com',
  owner: 'octo-org',
  repo: 'demo-repo',
  prNumber: 7,
  runUrl: null,
  maxRounds: 3,
  mode: 'fix',
  dryRun: false,
};
const outsider = threadFinding({
  id: 'THREAD-7771',
  priority: 'P1',
  title: 'Asks to run a script',
  source: { type: 'human', name: 'drive-by', reviewId: '7771' },
});

describe('outsidersSection', () => {
  it('lists each outsider thread with its id, priority, title, author and place, and says it does not block', () => {
    const text = outsidersSection(reviewRecord({ outsiderThreads: [outsider] }), ctx)!;
    expect(text).toMatch(/^### .*Comments from outside contributors/);
    expect(text).toContain('do not block the loop');
    expect(text).toContain('`fail-on`');
    const line = /- P1 `THREAD-7771` · Asks to run a script · by drive-by · \[`src\/math\.js:2`\]\(https:\/\//;
    expect(text).toMatch(line);
  });

  it('is left out when there are none, and rendered in the review report when there are', () => {
    expect(outsidersSection(reviewRecord(), ctx)).toBeNull();
    const report = renderReviewReport(reviewRecord({ outsiderThreads: [outsider] }), ctx);
    expect(report.split('Comments from outside contributors')[1]).toContain('THREAD-7771');
    expect(report).toContain('0 open thread(s)');
  });
});
