// Candidate groups for a new finding, without comparing it to every group (issue 8, part 4:
// 5 reviewers × 1,000 findings in one file took 10 s of blocked event loop). sameProblem
// with lines needs the same file and lines within LINE_WINDOW (or an unknown line), so only
// groups of that file whose line is near, or unknown, can match. The groups come back in the
// order they were created, so "the first group that matches" is what a full scan would find.
import { LINE_WINDOW, type Comparable } from './similarity.js';

interface Entry<T> {
  group: T;
  order: number;
}

interface FileGroups<T> {
  noLine: Entry<T>[];
  byLine: Map<number, Entry<T>[]>;
  all: Entry<T>[];
}

export class GroupIndex<T extends Comparable> {
  private readonly files = new Map<string | null, FileGroups<T>>();
  private readonly lineOf = new Map<T, number | null>();
  private created = 0;

  add(group: T): void {
    const entry = { group, order: this.created++ };
    const file = this.fileGroups(group.file);
    file.all.push(entry);
    this.put(file, entry, group.line);
  }

  /** Groups that may be the same problem as `f`, oldest first. */
  candidates(f: Comparable): T[] {
    const file = this.files.get(f.file);
    if (!file) return [];
    if (f.line == null) return file.all.map((e) => e.group);
    const near = [...file.noLine];
    for (let l = f.line - LINE_WINDOW; l <= f.line + LINE_WINDOW; l++) near.push(...(file.byLine.get(l) ?? []));
    return near.sort((a, b) => a.order - b.order).map((e) => e.group);
  }

  /** Call after a group took another member's place (its line may have moved). */
  moved(group: T): void {
    const old = this.lineOf.get(group);
    if (old === undefined || old === group.line) return;
    const file = this.fileGroups(group.file);
    const bucket = old == null ? file.noLine : file.byLine.get(old) ?? [];
    const i = bucket.findIndex((e) => e.group === group);
    if (i === -1) return;
    const [entry] = bucket.splice(i, 1);
    this.put(file, entry!, group.line);
  }

  private put(file: FileGroups<T>, entry: Entry<T>, line: number | null): void {
    this.lineOf.set(entry.group, line);
    if (line == null) file.noLine.push(entry);
    else file.byLine.set(line, [...(file.byLine.get(line) ?? []), entry]);
  }

  private fileGroups(name: string | null): FileGroups<T> {
    let file = this.files.get(name);
    if (!file) this.files.set(name, (file = { noLine: [], byLine: new Map(), all: [] }));
    return file;
  }
}
