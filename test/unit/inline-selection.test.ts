import { describe, expect, it } from 'vitest';
import { LOUD, selectInline } from '../../src/report/inline-selection.js';
import type { Priority } from '../../src/domain/priority.js';

const f = (id: string, priority: Priority, reporters = 1) => ({ id, priority, reportedBy: Array(reporters).fill('r') });

describe('selectInline (quiet mode)', () => {
  const findings = [f('a', 'P3'), f('b', 'P1'), f('c', 'P2', 1), f('d', 'P2', 3), f('e', 'P0')];

  it("keeps every finding by default, in the reviewers' order", () => {
    expect(selectInline(findings, LOUD)).toEqual({ chosen: findings, heldBack: { below: 0, overCap: 0 } });
  });

  it('keeps findings at or above the priority and counts the rest', () => {
    const r = selectInline(findings, { minPriority: 'P1', maxComments: null });
    expect(r.chosen.map((x) => x.id)).toEqual(['b', 'e']);
    expect(r.heldBack).toEqual({ below: 3, overCap: 0 });
  });

  it('caps the most severe first, then the most reviewers, and keeps their order in the review', () => {
    const r = selectInline(findings, { minPriority: 'P3', maxComments: 3 });
    expect(r.chosen.map((x) => x.id)).toEqual(['b', 'd', 'e']);
    expect(r.heldBack).toEqual({ below: 0, overCap: 2 });
  });

  it('applies both: the cap counts only what the priority let through', () => {
    const r = selectInline(findings, { minPriority: 'P2', maxComments: 1 });
    expect(r.chosen.map((x) => x.id)).toEqual(['e']);
    expect(r.heldBack).toEqual({ below: 1, overCap: 3 });
  });
});
