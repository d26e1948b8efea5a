// The indexed grouping must give exactly what the plain "first group that matches" scan gave.
import { describe, expect, it } from 'vitest';
import type { RawFinding } from '../../src/agents/envelope.js';
import { groupFindings, normalizeFinding, sortFindings } from '../../src/review/findings.js';
import { sameProblem } from '../../src/review/similarity.js';
import type { Finding } from '../../src/review/types.js';

/** The grouping as it was before the index: compare with every group, in order. */
function scanGroup(findings: Finding[]): Finding[] {
  const groups: Finding[] = [];
  for (const f of findings) {
    const match = groups.find((g) => sameProblem(g, f, { useLines: true }));
    if (!match) {
      groups.push({ ...f, reportedBy: [...f.reportedBy] });
      continue;
    }
    for (const r of f.reportedBy) if (!match.reportedBy.includes(r)) match.reportedBy.push(r);
    if (['P0', 'P1', 'P2', 'P3'].indexOf(f.priority) < ['P0', 'P1', 'P2', 'P3'].indexOf(match.priority)) {
      Object.assign(match, { ...f, reportedBy: match.reportedBy });
    }
  }
  return sortFindings(groups);
}

function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

const WORDS = ['null', 'check', 'missing', 'offset', 'ignored', 'overflow', 'race', 'leak', 'handler', 'input'];

function findings(seed: number, n: number): Finding[] {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const raw: RawFinding = {
      priority: pick(['P0', 'P1', 'P2', 'P3'] as const),
      category: pick(['security', 'quality', 'performance']),
      file: r() < 0.1 ? null : pick(['a.ts', 'b.ts', 'c.ts']),
      line: r() < 0.15 ? null : Math.floor(r() * 40) + 1,
      title: Array.from({ length: 2 + Math.floor(r() * 3) }, () => pick(WORDS)).join(' '),
      description: '',
    } as RawFinding;
    return normalizeFinding(raw, `reviewer-${(i % 5) + 1}`);
  });
}

describe('indexed grouping', () => {
  it('matches the full scan on random panels (moved representatives, unknown lines and files)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const input = findings(seed, 60);
      expect(groupFindings(input), `seed ${seed}`).toEqual(scanGroup(input));
    }
  });
});
