// Turns the reviewers' raw findings into the round's Finding list: ids computed by the
// action, one entry per problem, each carrying the reviewers that reported it.
import type { RawFinding } from '../agents/envelope.js';
import { priorityRank as rank } from '../domain/priority.js';
import { findingId } from './finding-id.js';
import { findingPlaces } from './finding-places.js';
import { GroupIndex } from './group-index.js';
import { groupLocations } from './group-places.js';
import { hasSeveralPlaces, placesOf } from './places.js';
import {
  contentCache,
  namesSharedWith,
  sameProblem,
  TITLE_THRESHOLD,
  titleSimilarity,
  titleWordCache,
  type ContentCache,
} from './similarity.js';
import type { Counts, Finding, FindingLocation, FindingMember } from '../domain/findings.js';

export function normalizeFinding(raw: RawFinding, reviewer: string): Finding {
  const places = findingPlaces(raw);
  const { file, line, endLine, replacement } = places[0]!;
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
    // Always both keys: a group takes its most severe member's fields, none left from another member.
    endLine,
    replacement,
    ...(places.length > 1 ? { locations: places } : {}),
    source: { type: 'agent', name: reviewer, reviewId: null },
    reportedBy: [reviewer],
    ...(raw.decision ? { asked: { question: raw.decision.question, options: raw.decision.options } } : {}),
  };
}

/**
 * Groups findings about the same problem (see similarity.ts). A finding joins the first group
 * with a member it is the same problem as; only its title can join it to a group its own reviewer
 * is already in there. A finding with several places is matched place by place: it joins the
 * first group that matches each place, and groups it joins through different places become one
 * (the same problem, seen by reviewers who reported it one spot at a time). The group shows its
 * clearest member (the most severe; then the one that shares the most code names with the others;
 * then the first), counts every reporter once, and keeps every member's text and id: the ids are
 * aliases of the group. Input order is reviewer order, so the result is deterministic.
 */
export function groupFindings(findings: Finding[]): Finding[] {
  const groups = new Map<Finding, GroupParts>();
  const inputOrder = new Map(findings.map((f, i) => [f, i]));
  const words = titleWordCache();
  const index = new GroupIndex<Finding>(words);
  const content = contentCache();
  let made = 0;
  const titleMatch = (titles: Set<string>, title: string): boolean => {
    for (const t of titles) if (titleSimilarity(t, title, words) >= TITLE_THRESHOLD) return true;
    return false;
  };
  /** Whether `f`, at one place, is the same problem as a member of group `g`. */
  const joins = (g: Finding, f: Finding): boolean => {
    const parts = groups.get(g)!;
    if (parts.spread) return joinsSpread(parts, f);
    // Where either side has no line, sameProblem reads only the titles: each title is asked once.
    if (f.line == null) return titleMatch(parts.titles, f.title);
    if (titleMatch(parts.unplacedTitles, f.title)) return true;
    const crossReviewer = !g.reportedBy.some((r) => f.reportedBy.includes(r));
    for (const m of parts.placed.values()) {
      if (sameProblem(m, f, { useLines: true, words, content, crossReviewer })) return true;
    }
    return false;
  };
  /** A group over several files: each member asked; the reviewer's own findings count only in f's file. */
  const joinsSpread = (parts: GroupParts, f: Finding): boolean => {
    const own = (m: Finding) => m.reportedBy.some((r) => f.reportedBy.includes(r));
    const crossReviewer = !parts.members.some((m) => own(m) && placesOf(m).some((p) => p.file === f.file));
    return parts.members.some((m) => sameProblem(m, f, { useLines: true, words, content, crossReviewer }));
  };
  // Findings under one id are one problem: ids are hashes of what a finding says, or an earlier
  // finding's id two reviewers both echoed (echoed-id.ts).
  const byId = new Map<string, Finding>();
  /** The first group that matches each place of `f`, each group once, oldest first. */
  const matching = (f: Finding): Finding[] => {
    const same = byId.get(f.id);
    if (same) return [same];
    if (!hasSeveralPlaces(f)) {
      const g = index.candidates(f).find((c) => joins(c, f));
      return g ? [g] : [];
    }
    const found = new Set<Finding>();
    for (const view of f.locations!.map((p) => atPlace(f, p))) {
      const g = index.candidates(view).find((c) => joins(c, view));
      if (g) found.add(g);
    }
    return [...found].sort((a, b) => groups.get(a)!.order - groups.get(b)!.order);
  };
  const merge = (into: Finding, from: Finding): void => {
    const [a, b] = [groups.get(into)!, groups.get(from)!];
    a.members = [...a.members, ...b.members].sort((x, y) => inputOrder.get(x)! - inputOrder.get(y)!);
    for (const t of b.titles) a.titles.add(t);
    for (const t of b.unplacedTitles) a.unplacedTitles.add(t);
    for (const [k, m] of b.placed) if (!a.placed.has(k)) a.placed.set(k, m);
    a.spread = true;
    into.reportedBy.splice(0, into.reportedBy.length, ...new Set(a.members.flatMap((m) => m.reportedBy)));
    groups.delete(from);
    index.merge(from, into);
    for (const [id, g] of byId) if (g === from) byId.set(id, into);
  };

  for (const f of findings) {
    const [match, ...others] = matching(f);
    const group = match ?? { ...f, reportedBy: [] };
    if (!match) {
      const parts = { members: [], titles: new Set<string>(), unplacedTitles: new Set<string>(), placed: new Map() };
      groups.set(group, { ...parts, spread: false, order: made++ });
    }
    for (const other of others) merge(group, other);
    const parts = groups.get(group)!;
    parts.members.push(f);
    if (hasSeveralPlaces(f)) parts.spread = true;
    parts.titles.add(f.title);
    if (f.line == null) parts.unplacedTitles.add(f.title);
    else {
      const key = [f.category, f.line, f.endLine, f.title, f.description, f.suggestion].join('\u0000');
      if (!parts.placed.has(key)) parts.placed.set(key, f);
    }
    for (const r of f.reportedBy) if (!group.reportedBy.includes(r)) group.reportedBy.push(r);
    index.add(group, f);
    if (!byId.has(f.id)) byId.set(f.id, group);
  }
  return sortFindings([...groups].map(([group, parts]) => shownGroup(parts.members, group.reportedBy, content)));
}

/** `f` at one of its places only. */
function atPlace(f: Finding, p: FindingLocation): Finding {
  const { locations: _all, ...rest } = f;
  return { ...rest, file: p.file, line: p.line, endLine: p.endLine, replacement: p.replacement };
}

/** A group's members, and the parts of them that grouping compares, each once. */
interface GroupParts {
  members: Finding[];
  titles: Set<string>;
  /** Titles of members without a line. */
  unplacedTitles: Set<string>;
  /** Members with a line, one for each distinct set of what sameProblem reads. */
  placed: Map<string, Finding>;
  /** A member has several places, or groups were merged: the group may span files, each member is asked. */
  spread: boolean;
  /** When the group was made: groups are matched oldest first. */
  order: number;
}

/** The group as the report shows it: its clearest member's fields, every reporter, every member. */
export function shownGroup(all: Finding[], reportedBy: string[], content: ContentCache = contentCache()): Finding {
  const best = [...all]
    .map((f, i) => ({ f, i, names: all.length > 1 ? namesSharedWith(f, all, content) : 0 }))
    .sort((a, b) => rank(a.f.priority) - rank(b.f.priority) || b.names - a.names || a.i - b.i)[0]!.f;
  const places = groupLocations(best, all);
  const group: Finding = { ...best, reportedBy: [...reportedBy], ...(places ? { locations: places } : {}) };
  if (all.length < 2) return group;
  const aliases = [...new Set(all.map((m) => m.id))].filter((id) => id !== best.id);
  return { ...group, members: all.map(memberOf), ...(aliases.length ? { aliases } : {}) };
}

function memberOf(f: Finding): FindingMember {
  const { id, priority, category, file, line, title, description } = f;
  const member = {
    id,
    reviewer: f.reportedBy[0] ?? f.source.name,
    priority,
    category,
    file,
    line,
    title,
    description,
    ...(f.asked ? { asked: f.asked } : {}),
  };
  if (!hasSeveralPlaces(f)) return member;
  return { ...member, locations: f.locations!.map((p) => ({ file: p.file, line: p.line })) };
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
