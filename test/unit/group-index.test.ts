// The indexed grouping must give exactly what the plain "first group that matches" scan gave.
import { describe, expect, it } from 'vitest';
import type { RawFinding } from '../../src/agents/envelope.js';
import { groupFindings, normalizeFinding, shownGroup, sortFindings } from '../../src/review/findings.js';
import { contentCache, sameProblem } from '../../src/review/similarity.js';
import type { Finding } from '../../src/domain/findings.js';

/**
 * The same grouping without the index: each finding is compared with every member of every group,
 * in order. Only which groups are compared differs; so the results must be equal.
 */
function scanGroup(findings: Finding[]): Finding[] {
  const groups: { reportedBy: string[]; members: Finding[] }[] = [];
  const content = contentCache();
  for (const f of findings) {
    const match = groups.find((g) => {
      const crossReviewer = !g.reportedBy.some((r) => f.reportedBy.includes(r));
      return g.members.some((m) => sameProblem(m, f, { useLines: true, crossReviewer, content }));
    });
    const group = match ?? { reportedBy: [], members: [] };
    if (!match) groups.push(group);
    group.members.push(f);
    for (const r of f.reportedBy) if (!group.reportedBy.includes(r)) group.reportedBy.push(r);
  }
  return sortFindings(groups.map((g) => shownGroup(g.members, g.reportedBy)));
}

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
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
