import { describe, expect, it } from 'vitest';
import { breachesFailOn, consensus, isConverged, type FailOn } from '../../src/review/consensus.js';
import type { ReviewState } from '../../src/domain/pull-request.js';
import type { Counts } from '../../src/domain/findings.js';

const none: ReviewState = { hasChangesRequested: false, changesRequestedBy: [] };
const changes: ReviewState = {
  hasChangesRequested: true,
  changesRequestedBy: [{ login: 'alice', association: 'OWNER' }],
};
const c = (p0 = 0, p1 = 0, p2 = 0, p3 = 0): Counts => ({ p0, p1, p2, p3 });

describe('consensus', () => {
  it('the maintainer veto: requested changes by a maintainer → request_changes, even over a P0', () => {
    expect(consensus(c(), changes)).toBe('request_changes');
    expect(consensus(c(3, 1, 1, 1), changes)).toBe('request_changes');
  });

  it('any P0 → needs_major_work', () => {
    expect(consensus(c(1), none)).toBe('needs_major_work');
    expect(consensus(c(1, 4, 4, 4), none)).toBe('needs_major_work');
  });

  it('P1 or P2 → request_changes', () => {
    expect(consensus(c(0, 1), none)).toBe('request_changes');
    expect(consensus(c(0, 0, 1), none)).toBe('request_changes');
  });

  it('only P3 or nothing → approve', () => {
    expect(consensus(c(0, 0, 0, 5), none)).toBe('approve');
    expect(consensus(c(), none)).toBe('approve');
  });
});

describe('isConverged', () => {
  it('needs no P0–P2, no unresolved thread and an approving consensus', () => {
    expect(isConverged(c(0, 0, 0, 2), 0, 'approve')).toBe(true);
    expect(isConverged(c(0, 0, 1), 0, 'approve')).toBe(false);
    expect(isConverged(c(0, 1), 0, 'approve')).toBe(false);
    expect(isConverged(c(1), 0, 'approve')).toBe(false);
    expect(isConverged(c(), 1, 'approve')).toBe(false);
    expect(isConverged(c(), 0, 'request_changes')).toBe(false);
  });
});

describe('breachesFailOn', () => {
  const cases: [FailOn, Counts, boolean][] = [
    ['none', c(5, 5, 5, 5), false],
    ['P0', c(1), true],
    ['P0', c(0, 3, 3, 3), false],
    ['P1', c(0, 1), true],
    ['P1', c(1), true],
    ['P1', c(0, 0, 3, 3), false],
    ['P2', c(0, 0, 1), true],
    ['P2', c(0, 1), true],
    ['P2', c(0, 0, 0, 9), false],
  ];
  it.each(cases)('fail-on %s with %o → %s', (failOn, counts, want) => {
    expect(breachesFailOn(counts, failOn)).toBe(want);
  });
});
