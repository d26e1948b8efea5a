// Candidate groups for a new finding, without comparing it to every group (5 reviewers × 1,000
// findings in one file once took 10 s of blocked event loop). sameProblem with lines needs the
// same file and ranges within LINE_WINDOW (or an unknown line), so only groups with a member of
// that file near the finding, or with no line, can match. Every member is indexed, not only the
// group's shown text: two reviewers' findings link through any member. Groups come back in the
// order they were created, so "the first group that matches" is what a full scan would find.
import { LINE_WINDOW, type Comparable } from './similarity.js';

interface Entry<G> {
  group: G;
  order: number;
}

interface FileGroups<G> {
  noLine: Entry<G>[];
  /** Members by every line of their range. */
  byLine: Map<number, Entry<G>[]>;
  all: Entry<G>[];
}

export class GroupIndex<G> {
  private readonly files = new Map<string | null, FileGroups<G>>();
  private readonly orderOf = new Map<G, number>();

  /** Indexes `member` as a member of `group` (a new group is ordered after every earlier one). */
  add(group: G, member: Comparable): void {
    let order = this.orderOf.get(group);
    if (order === undefined) this.orderOf.set(group, (order = this.orderOf.size));
    const entry = { group, order };
    const file = this.fileGroups(member.file);
    file.all.push(entry);
    const span = lineSpan(member);
    // No line, or a range too long to index line by line: a candidate for every finding of the file.
    if (!span) {
      file.noLine.push(entry);
      return;
    }
    for (let l = span.start; l <= span.end; l++) file.byLine.set(l, [...(file.byLine.get(l) ?? []), entry]);
  }

  /** Groups that may hold the same problem as `f`, oldest first, each once. */
  candidates(f: Comparable): G[] {
    const file = this.files.get(f.file);
    if (!file) return [];
    const span = lineSpan(f);
    let entries: Entry<G>[];
    if (!span) entries = file.all;
    else {
      entries = [...file.noLine];
      for (let l = span.start - LINE_WINDOW; l <= span.end + LINE_WINDOW; l++) {
        entries.push(...(file.byLine.get(l) ?? []));
      }
    }
    const seen = new Set<G>();
    return entries
      .sort((a, b) => a.order - b.order)
      .filter((e) => !seen.has(e.group) && seen.add(e.group))
      .map((e) => e.group);
  }

  private fileGroups(name: string | null): FileGroups<G> {
    let file = this.files.get(name);
    if (!file) this.files.set(name, (file = { noLine: [], byLine: new Map(), all: [] }));
    return file;
  }
}

/** Ranges longer than this are not indexed line by line. */
const MAX_INDEXED_SPAN = 200;

function lineSpan(f: Comparable): { start: number; end: number } | null {
  if (f.line == null) return null;
  const end = Math.max(f.line, f.endLine ?? f.line);
  return end - f.line > MAX_INDEXED_SPAN ? null : { start: f.line, end };
}
