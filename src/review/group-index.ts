// Candidate groups for a new finding, without comparing it to every group (5 reviewers × 1,000
// findings in one file once took 10 s of blocked event loop). sameProblem with lines needs the
// same file and ranges within LINE_WINDOW (or an unknown line), so only groups with a member of
// that file near the finding, or with no line, can match. Every member is indexed, not only the
// group's shown text: two reviewers' findings link through any member. Groups come back in the
// order they were created, so "the first group that matches" is what a full scan would find.
import { LINE_WINDOW, type Comparable } from './similarity.js';

interface FileGroups<G> {
  /** Groups with a member without a line (or with a range too long to index), each once. */
  noLine: Set<G>;
  /** Groups by every line of their members' ranges. */
  byLine: Map<number, Set<G>>;
  /** Every group with a member in the file, each once, oldest first. */
  all: G[];
  inFile: Set<G>;
}

export class GroupIndex<G> {
  private readonly files = new Map<string | null, FileGroups<G>>();
  private readonly orderOf = new Map<G, number>();

  /** Indexes `member` as a member of `group` (a new group is ordered after every earlier one). */
  add(group: G, member: Comparable): void {
    if (!this.orderOf.has(group)) this.orderOf.set(group, this.orderOf.size);
    const file = this.fileGroups(member.file);
    if (!file.inFile.has(group)) {
      file.inFile.add(group);
      file.all.push(group);
    }
    const span = lineSpan(member);
    // No line, or a range too long to index line by line: a candidate for every finding of the file.
    if (!span) {
      file.noLine.add(group);
      return;
    }
    for (let l = span.start; l <= span.end; l++) {
      let at = file.byLine.get(l);
      if (!at) file.byLine.set(l, (at = new Set()));
      at.add(group);
    }
  }

  /** Groups that may hold the same problem as `f`, oldest first, each once. */
  candidates(f: Comparable): G[] {
    const file = this.files.get(f.file);
    if (!file) return [];
    const span = lineSpan(f);
    if (!span) return file.all;
    const found = new Set(file.noLine);
    for (let l = span.start - LINE_WINDOW; l <= span.end + LINE_WINDOW; l++) {
      for (const g of file.byLine.get(l) ?? []) found.add(g);
    }
    return [...found].sort((a, b) => this.orderOf.get(a)! - this.orderOf.get(b)!);
  }

  private fileGroups(name: string | null): FileGroups<G> {
    let file = this.files.get(name);
    if (!file) this.files.set(name, (file = { noLine: new Set(), byLine: new Map(), all: [], inFile: new Set() }));
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
