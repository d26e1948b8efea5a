import { describe, expect, it } from 'vitest';
import type { FixResult } from '../../src/agents/envelope.js';
import { buildFixPayload, checkAccounting } from '../../src/fix/payload.js';
import { finding, threadFinding } from './helpers.js';

const p0 = finding({ id: 'SEC-1a2b3c4d', priority: 'P0', category: 'security', title: 'SQL injection' });
const p1 = finding({ id: 'BUG-5bb51bb7', priority: 'P1' });
const p2 = finding({ id: 'QUAL-0badc0de', priority: 'P2', category: 'quality', title: 'Duplicated rounding' });
const p3 = finding({ id: 'DOCS-12345678', priority: 'P3', category: 'docs', title: 'Typo' });
const stuck = finding({ id: 'PERF-deadbeef', priority: 'P1', category: 'performance', title: 'Quadratic loop', stuck: true });
const human = threadFinding({ priority: 'P1' });

describe('buildFixPayload', () => {
  it('P0–P2 code findings go to the fixer, P3 are optional, stuck and human ones are left out', () => {
    const payload = buildFixPayload(7, 2, [p0, human, p1, stuck, p2, p3]);
    expect(payload.prNumber).toBe(7);
    expect(payload.round).toBe(2);
    expect(payload.issuesToFix.map((f) => f.id)).toEqual([p0.id, p1.id, p2.id]);
    expect(payload.optionalIssues.map((f) => f.id)).toEqual([p3.id]);
  });

  it('is empty when only stuck findings and threads remain', () => {
    expect(buildFixPayload(7, 1, [stuck, human])).toEqual({ prNumber: 7, round: 1, issuesToFix: [], optionalIssues: [] });
  });
});

describe('checkAccounting', () => {
  const payload = buildFixPayload(7, 1, [p0, p1, p3]);
  const result = (fixed: string[], rejected: string[] = []): FixResult => ({
    fixedIssues: fixed.map((findingId) => ({ findingId, description: `fixed ${findingId}` })),
    rejectedIssues: rejected.map((findingId) => ({ findingId, reason: 'false positive' })),
    commits: [],
  });

  it('accepts a result where fixed + rejected = issuesToFix', () => {
    expect(checkAccounting(payload, result([p0.id], [p1.id]))).toBeNull();
    expect(checkAccounting(payload, result([p1.id, p0.id]))).toBeNull();
  });

  it('allows optional ids, fixed or rejected', () => {
    expect(checkAccounting(payload, result([p0.id, p1.id, p3.id]))).toBeNull();
    expect(checkAccounting(payload, result([p0.id, p1.id], [p3.id]))).toBeNull();
  });

  it('names a missing issue', () => {
    expect(checkAccounting(payload, result([p0.id]))).toMatch(new RegExp(`does not account for ${p1.id}`));
  });

  it('names an issue listed twice, also across fixed and rejected', () => {
    expect(checkAccounting(payload, result([p0.id, p1.id, p0.id]))).toMatch(new RegExp(`${p0.id} is listed twice`));
    expect(checkAccounting(payload, result([p0.id, p1.id], [p1.id]))).toMatch(/listed twice/);
  });

  it('names an id that was not in the payload (an invented one, a stuck one, a thread)', () => {
    for (const id of ['BUG-ffffffff', stuck.id, human.id]) {
      expect(checkAccounting(payload, result([p0.id, p1.id, id]))).toMatch(new RegExp(`names ${id}, which was not in the fix payload`));
    }
  });
});
