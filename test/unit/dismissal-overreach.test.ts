// One dismissal silences one problem at its place, never other, real findings: not a finding of
// the file whose title shares half its words, not a finding with places elsewhere that has one
// place further down the dismissed file, not every finding of the file when titles have no ASCII
// words. Found by a red-team review; each case failed before the fix.
import { describe, expect, it } from 'vitest';
import type { ReviewThread } from '../../src/domain/pull-request.js';
import { renderInlineComment } from '../../src/report/inline-comment.js';
import { dismissalRequests, splitDismissed } from '../../src/review/dismissals.js';
import { normalizeFinding } from '../../src/review/findings.js';
import type { Finding } from '../../src/domain/findings.js';
import type { RawFinding } from '../../src/agents/envelope.js';

const BOT = 'github-actions[bot]';
let n = 1000;

/** A writer resolved (or replied `/review-loop dismiss`) in our thread of `f`. */
function dismissalOf(f: Finding) {
  const c = (author: string, body: string) => ({
    id: `C${n}`,
    databaseId: n++,
    body,
    author,
    authorAssociation: 'NONE',
    path: f.file,
    line: f.line,
    createdAt: '2026-11-26T00:00:00Z',
  });
  const t: ReviewThread = {
    id: `T${n++}`,
    isResolved: true,
    resolvedBy: 'maintainer',
    isOutdated: false,
    path: f.file,
    line: f.line,
    comments: [c('github-actions', renderInlineComment(f, 1))],
  };
  const [d] = dismissalRequests([t], BOT, []);
  return d!;
}

const mk = (raw: Partial<RawFinding> & { title: string }, who = 'reviewer-1') =>
  normalizeFinding({ priority: 'P1', category: 'security', file: 'src/db.js', line: 10, description: '', ...raw }, who);

describe('one dismissal, other bugs', () => {
  it('a false positive dismissed in getUser does not silence the real injection in deleteUser, 70 lines down', () => {
    const falsePositive = mk({
      line: 10,
      title: 'SQL injection in getUser',
      description: 'id is concatenated into the query (it is a parsed integer: safe)',
    });
    const real = mk({
      line: 80,
      title: 'SQL injection in deleteUser',
      description: '`name` from the request body is interpolated into DELETE ... WHERE name = ...',
    });
    const { kept } = splitDismissed([real], [dismissalOf(falsePositive)]);
    expect(kept.map((f) => f.title)).toEqual(['SQL injection in deleteUser']);
  });

  it('a generic title dismissed once does not silence a longer, different finding of the file', () => {
    const dismissed = mk({ category: 'correctness', line: 5, title: 'Race condition' });
    const other = mk({ category: 'correctness', line: 200, title: 'Race condition in cache eviction' });
    expect(splitDismissed([other], [dismissalOf(dismissed)]).kept).toHaveLength(1);
  });

  it('a finding with places in three files is not dropped whole because one place is in the dismissed file', () => {
    const dismissed = mk({ file: 'src/a.js', line: 3, title: 'Unchecked null from parse()' });
    const spread = mk({
      file: 'src/b.js',
      line: 7,
      title: 'Unchecked null from parse()',
      locations: [
        { file: 'src/b.js', line: 7 },
        { file: 'src/c.js', line: 9 },
        { file: 'src/a.js', line: 40 },
      ],
    });
    expect(splitDismissed([spread], [dismissalOf(dismissed)]).kept).toHaveLength(1);
  });

  it('titles without ASCII words: one dismissal does not silence every finding of the file', () => {
    const dismissed = mk({ category: 'quality', line: 3, title: '変数名が分かりにくい' }); // unclear variable name
    const real = mk({ category: 'security', line: 90, title: '認証チェックがありません' }); // no auth check
    expect(splitDismissed([real], [dismissalOf(dismissed)]).kept).toHaveLength(1);
  });
});
