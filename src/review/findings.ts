// Turns the reviewers' raw findings into the round's Finding list: ids computed by the
// action, one entry per problem, each carrying the reviewers that reported it.
import type { RawFinding } from '../agents/envelope.js';
import { priorityRank as rank } from '../domain/priority.js';
import { findingId } from './finding-id.js';
import { GroupIndex } from './group-index.js';
import {
  contentCache, namesSharedWith, sameProblem, TITLE_THRESHOLD, titleSimilarity, titleWordCache, type ContentCache,
} from './similarity.js';
import type { Counts, Finding, FindingMember } from '../domain/findings.js';

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
 * Groups findings about the same problem (see similarity.ts). A finding joins the first group
 * with a member it is the same problem as; only its title can join it to a group its own reviewer
 * is already in. The group shows its clearest member (the most severe; then the one that shares
 * the most code names with the others; then the first), counts every reporter once, and keeps
 * every member's text and id: the ids are aliases of the group. Input order is reviewer order, so
 * the result is deterministic.
 */
export function groupFindings(findings: Finding[]): Finding[] {
  const groups = new Map<Finding, GroupParts>();
  const words = titleWordCache();
  const index = new GroupIndex<Finding>(words);
  const content = contentCache();
  const titleMatch = (titles: Set<string>, title: string): boolean => {
    for (const t of titles) if (titleSimilarity(t, title, words) >= TITLE_THRESHOLD) return true;
    return false;
  };
  for (const f of findings) {
    const match = index.candidates(f).find((g) => {
      const parts = groups.get(g)!;
      // Where either side has no line, sameProblem reads only the titles: each title is asked once.
      if (f.line == null) return titleMatch(parts.titles, f.title);
      if (titleMatch(parts.unplacedTitles, f.title)) return true;
      const crossReviewer = !g.reportedBy.some((r) => f.reportedBy.includes(r));
      for (const m of parts.placed.values()) {
        if (sameProblem(m, f, { useLines: true, words, content, crossReviewer })) return true;
      }
      return false;
    });
    const group = match ?? { ...f, reportedBy: [] };
    if (!match) groups.set(group, { members: [], titles: new Set(), unplacedTitles: new Set(), placed: new Map() });
    const parts = groups.get(group)!;
    parts.members.push(f);
    parts.titles.add(f.title);
    if (f.line == null) parts.unplacedTitles.add(f.title);
    else {
      const key = [f.category, f.line, f.endLine, f.title, f.description, f.suggestion].join('\u0000');
      if (!parts.placed.has(key)) parts.placed.set(key, f);
    }
    for (const r of f.reportedBy) if (!group.reportedBy.includes(r)) group.reportedBy.push(r);
    index.add(group, f);
  }
  return sortFindings([...groups].map(([group, parts]) => shownGroup(parts.members, group.reportedBy, content)));
}

/** A group's members, and the parts of them that grouping compares, each once. */
interface GroupParts {
  members: Finding[];
  titles: Set<string>;
  /** Titles of members without a line. */
  unplacedTitles: Set<string>;
  /** Members with a line, one for each distinct set of what sameProblem reads. */
  placed: Map<string, Finding>;
}

/** The group as the report shows it: its clearest member's fields, every reporter, every member. */
export function shownGroup(all: Finding[], reportedBy: string[], content: ContentCache = contentCache()): Finding {
  const best = [...all]
    .map((f, i) => ({ f, i, names: all.length > 1 ? namesSharedWith(f, all, content) : 0 }))
    .sort((a, b) => rank(a.f.priority) - rank(b.f.priority) || b.names - a.names || a.i - b.i)[0]!.f;
  const group: Finding = { ...best, reportedBy: [...reportedBy] };
  if (all.length < 2) return group;
  const aliases = [...new Set(all.map((m) => m.id))].filter((id) => id !== best.id);
  return { ...group, members: all.map(memberOf), ...(aliases.length ? { aliases } : {}) };
}

function memberOf(f: Finding): FindingMember {
  const { id, priority, category, file, line, title, description } = f;
  return { id, reviewer: f.reportedBy[0] ?? f.source.name, priority, category, file, line, title, description };
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
