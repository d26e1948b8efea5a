import { describe, expect, it } from 'vitest';
import { truncateDiff } from '../../src/git/diff-sample.js';
import { computeReviewState } from '../../src/github/pull-request.js';

/** A diff of n lines, each ending in a newline, as GitHub's diff media type returns it. */
function diffOf(n: number): string {
  const lines = ['diff --git a/src/app.js b/src/app.js', '--- a/src/app.js', '+++ b/src/app.js', '@@ -1,200 +1,200 @@'];
  for (let i = lines.length; i < n; i++) lines.push(`+const v${i} = ${i};`);
  return lines.slice(0, n).join('\n') + '\n';
}

describe('truncateDiff', () => {
  it('leaves a diff within both budgets untouched', () => {
    const diff = diffOf(20);
    expect(truncateDiff(diff, 4000, 200_000)).toEqual({ diff, truncated: false });
  });

  it('cuts to the line budget on a line boundary and says how much was shown', () => {
    const diff = diffOf(50);
    const out = truncateDiff(diff, 10, 200_000);
    expect(out.truncated).toBe(true);
    const expectedHead = diff.split('\n').slice(0, 10).join('\n');
    expect(out.diff.startsWith(`${expectedHead}\n[diff truncated: 10 of `)).toBe(true);
    expect(out.diff).toMatch(
      /\[diff truncated: 10 of 5\d lines shown; read the files in the checkout for the rest\]\n$/,
    );
  });

  it('cuts to the character budget without splitting a line', () => {
    const diff = diffOf(50);
    const budget = 300;
    const out = truncateDiff(diff, 4000, budget);
    expect(out.truncated).toBe(true);
    const shown = out.diff.slice(0, out.diff.indexOf('\n[diff truncated:'));
    expect(shown.length).toBeLessThanOrEqual(budget);
    // Every shown line is a whole line of the original, in order.
    expect(diff.startsWith(`${shown}\n`)).toBe(true);
    // And the next whole line would not have fitted.
    const nextLine = diff.slice(shown.length + 1).split('\n')[0]!;
    expect(shown.length + 1 + nextLine.length + 1).toBeGreaterThan(budget);
  });

  // BUG: the trailing newline of a diff makes split('\n') yield an extra empty "line".
  // A diff of exactly maxLines lines (or exactly maxChars characters) loses nothing, yet it
  // is reported as truncated, gets the note "10 of 11 lines shown", and reviewers are told
  // to read the rest from the checkout.
  it('does not report a diff of exactly the line budget as truncated', () => {
    const diff = diffOf(10);
    expect(truncateDiff(diff, 10, 200_000)).toEqual({ diff, truncated: false });
  });

  it('does not report a diff of exactly the character budget as truncated', () => {
    const diff = diffOf(10);
    expect(truncateDiff(diff, 4000, diff.length)).toEqual({ diff, truncated: false });
  });
});

describe('computeReviewState (the maintainer veto of the consensus)', () => {
  const at = (min: number) => `2026-11-20T10:${String(min).padStart(2, '0')}:00Z`;

  it('counts a CHANGES_REQUESTED review by a MEMBER', () => {
    const s = computeReviewState([
      { login: 'alice', state: 'CHANGES_REQUESTED', association: 'MEMBER', submittedAt: at(1) },
    ]);
    expect(s).toEqual({ hasChangesRequested: true, changesRequestedBy: [{ login: 'alice', association: 'MEMBER' }] });
  });

  it('the latest decisive review per user wins, whatever order the API lists them in', () => {
    const s = computeReviewState([
      { login: 'alice', state: 'APPROVED', association: 'OWNER', submittedAt: at(5) },
      { login: 'alice', state: 'CHANGES_REQUESTED', association: 'OWNER', submittedAt: at(1) },
      { login: 'bob', state: 'APPROVED', association: 'COLLABORATOR', submittedAt: at(2) },
      { login: 'bob', state: 'CHANGES_REQUESTED', association: 'COLLABORATOR', submittedAt: at(6) },
    ]);
    expect(s.changesRequestedBy).toEqual([{ login: 'bob', association: 'COLLABORATOR' }]);
    expect(s.hasChangesRequested).toBe(true);
  });

  it('a later COMMENTED review does not lift requested changes', () => {
    const s = computeReviewState([
      { login: 'alice', state: 'CHANGES_REQUESTED', association: 'MEMBER', submittedAt: at(1) },
      { login: 'alice', state: 'COMMENTED', association: 'MEMBER', submittedAt: at(2) },
    ]);
    expect(s.hasChangesRequested).toBe(true);
  });

  it('a later DISMISSED review clears requested changes', () => {
    const s = computeReviewState([
      { login: 'alice', state: 'CHANGES_REQUESTED', association: 'MEMBER', submittedAt: at(1) },
      { login: 'alice', state: 'DISMISSED', association: 'MEMBER', submittedAt: at(2) },
    ]);
    expect(s).toEqual({ hasChangesRequested: false, changesRequestedBy: [] });
  });

  it('only OWNER, MEMBER and COLLABORATOR count', () => {
    const assoc = ['OWNER', 'MEMBER', 'COLLABORATOR', 'CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR', 'NONE'];
    const s = computeReviewState(
      assoc.map((a, i) => ({ login: `u${i}`, state: 'CHANGES_REQUESTED', association: a, submittedAt: at(i) })),
    );
    expect(s.changesRequestedBy.map((r) => r.association).sort()).toEqual(['COLLABORATOR', 'MEMBER', 'OWNER']);
  });

  it('no reviews, no requested changes', () => {
    expect(computeReviewState([])).toEqual({ hasChangesRequested: false, changesRequestedBy: [] });
  });
});
