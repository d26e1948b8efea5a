// Turns the reviewers' raw findings into the round's Finding list: ids computed by the
// action, one entry per problem, each carrying the reviewers that reported it.
import type { RawFinding } from '../agents/envelope.js';
import { priorityRank as rank } from '../priority.js';
import { findingId } from './finding-id.js';
import { GroupIndex } from './group-index.js';
import { sameProblem, titleWordCache } from './similarity.js';
import type { Counts, Finding } from './types.js';

export function normalizeFinding(raw: RawFinding, reviewer: string): Finding {
  const file = raw.file ? raw.file.replace(/^\.\//, '').trim() || null : null;
  const line = typeof raw.line === 'number' && raw.line > 0 ? raw.line : null;
  const title = raw.title.trim().slice(0, 300);
  const category = raw.category.trim().toLowerCase() || 'other';
  return {
    id: findingId({ category, file, line, title }),
    priority: raw.priority,
    category,
    file,
    line,
    title,
    description: raw.description ?? '',
    suggestion: raw.suggestion ?? null,
    ...range(line, raw.endLine, raw.replacement),
    source: { type: 'agent', name: reviewer, reviewId: null },
    reportedBy: [reviewer],
  };
}

/** A range only past its first line, and a replacement only with a line to replace. */
function range(line: number | null, endLine?: number | null, replacement?: string | null) {
  // Always both keys: a group takes its most severe member's fields, none left from another member.
  return {
    endLine: line && typeof endLine === 'number' && endLine > line ? endLine : null,
    replacement: line && typeof replacement === 'string' ? replacement : null,
  };
}

/**
 * Groups findings about the same problem (see similarity.ts). The group keeps the
 * most severe priority, the id and text of its most severe (then first) member, and
 * the union of reporters. Input order is reviewer order, so the result is deterministic.
 */
export function groupFindings(findings: Finding[]): Finding[] {
  const groups: Finding[] = [];
  const index = new GroupIndex<Finding>();
  const words = titleWordCache();
  for (const f of findings) {
    const match = index.candidates(f).find((g) => sameProblem(g, f, { useLines: true, words }));
    if (!match) {
      const group = { ...f, reportedBy: [...f.reportedBy] };
      groups.push(group);
      index.add(group);
      continue;
    }
    for (const r of f.reportedBy) if (!match.reportedBy.includes(r)) match.reportedBy.push(r);
    if (rank(f.priority) < rank(match.priority)) {
      Object.assign(match, { ...f, reportedBy: match.reportedBy });
      index.moved(match);
    }
  }
  return sortFindings(groups);
}

export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      rank(a.priority) - rank(b.priority) || b.reportedBy.length - a.reportedBy.length || a.id.localeCompare(b.id),
  );
}

export function countFindings(findings: Finding[]): Counts {
  const c: Counts = { p0: 0, p1: 0, p2: 0, p3: 0 };
  for (const f of findings) c[f.priority.toLowerCase() as keyof Counts]++;
  return c;
}
