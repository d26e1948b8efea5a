// Candidate groups for a new finding, without comparing it to every group (5 reviewers × 1,000
// findings in one file once took 10 s of blocked event loop). sameProblem with lines needs the
// same file, and then either ranges within LINE_WINDOW, or, where a line is unknown, titles with
// a Jaccard index of at least TITLE_THRESHOLD, which two titles only reach when they share a word
// (or both have none). So the candidates are the groups with a member of that file near the
// finding, and the groups with an unplaced member (any member, for an unplaced finding) whose
// title shares a word with the finding's. Every member is indexed, not only the group's shown
// text: two reviewers' findings link through any member. A finding with several places is indexed
// at each, and its candidates are those of any of its places. Groups come back in the order they
// were created, so "the first group that matches" is what a full scan would find; a group merged
// into another (a finding with several places can join groups that were apart) answers as it.
import { hasSeveralPlaces, placesOf, type Place } from './places.js';
import { LINE_WINDOW, type Comparable } from './similarity.js';

/** Groups by the words of some of their members' titles; a title without words under ''. */
class WordIndex<G> {
  private readonly byWord = new Map<string, Set<G>>();

  add(group: G, words: ReadonlySet<string>): void {
    for (const w of words.size ? words : ['']) {
      let at = this.byWord.get(w);
      if (!at) this.byWord.set(w, (at = new Set()));
      at.add(group);
    }
  }

  collect(words: ReadonlySet<string>, into: Set<G>): void {
    for (const w of words.size ? words : ['']) for (const g of this.byWord.get(w) ?? []) into.add(g);
  }
}

interface FileGroups<G> {
  /** Groups by every line of their members' ranges. */
  byLine: Map<number, Set<G>>;
  /** Groups with a member whose range is too long to index line by line. */
  longRange: Set<G>;
  /** Groups by the title words of every member, and of their members without a line. */
  titles: WordIndex<G>;
  unplacedTitles: WordIndex<G>;
  /** Every group with a member in the file, each once, oldest first. */
  all: G[];
  inFile: Set<G>;
}

export class GroupIndex<G> {
  private readonly files = new Map<string | null, FileGroups<G>>();
  private readonly orderOf = new Map<G, number>();
  private readonly mergedInto = new Map<G, G>();

  /** `words` splits a title into its comparable words (similarity.ts's titleWordCache). */
  constructor(private readonly words: (title: string) => Set<string>) {}

  /** Indexes `member` as a member of `group` (a new group is ordered after every earlier one). */
  add(group: G, member: Comparable): void {
    if (!this.orderOf.has(group)) this.orderOf.set(group, this.orderOf.size);
    const words = this.words(member.title);
    if (!hasSeveralPlaces(member)) this.addPlace(group, member, words);
    else for (const place of placesOf(member)) this.addPlace(group, place, words);
  }

  /** From now on `from` is part of `into`: it answers as `into`, which keeps its own place in the order. */
  merge(from: G, into: G): void {
    this.mergedInto.set(from, into);
  }

  /** Groups that may hold the same problem as `f`, oldest first, each once. */
  candidates(f: Comparable): G[] {
    const found = new Set<G>();
    const words = this.words(f.title);
    if (!hasSeveralPlaces(f)) this.collect(f, words, found);
    else for (const place of placesOf(f)) this.collect(place, words, found);
    const groups = this.mergedInto.size ? new Set([...found].map((g) => this.root(g))) : found;
    return [...groups].sort((a, b) => this.orderOf.get(a)! - this.orderOf.get(b)!);
  }

  private addPlace(group: G, place: Place, words: ReadonlySet<string>): void {
    const file = this.fileGroups(place.file);
    if (!file.inFile.has(group)) {
      file.inFile.add(group);
      file.all.push(group);
    }
    file.titles.add(group, words);
    if (place.line == null) {
      file.unplacedTitles.add(group, words);
      return;
    }
    const span = lineSpan(place);
    if (!span) {
      file.longRange.add(group);
      return;
    }
    for (let l = span.start; l <= span.end; l++) {
      let at = file.byLine.get(l);
      if (!at) file.byLine.set(l, (at = new Set()));
      at.add(group);
    }
  }

  private collect(place: Place, words: ReadonlySet<string>, found: Set<G>): void {
    const file = this.files.get(place.file);
    if (!file) return;
    if (place.line == null) {
      // Compared by title alone with every member.
      file.titles.collect(words, found);
      return;
    }
    const span = lineSpan(place);
    if (!span) {
      for (const g of file.all) found.add(g);
      return;
    }
    file.unplacedTitles.collect(words, found);
    for (const g of file.longRange) found.add(g);
    for (let l = span.start - LINE_WINDOW; l <= span.end + LINE_WINDOW; l++) {
      for (const g of file.byLine.get(l) ?? []) found.add(g);
    }
  }

  private root(group: G): G {
    let g = group;
    for (let next = this.mergedInto.get(g); next !== undefined; next = this.mergedInto.get(g)) g = next;
    return g;
  }

  private fileGroups(name: string | null): FileGroups<G> {
    let file = this.files.get(name);
    if (!file) {
      const titles = new WordIndex<G>();
      const unplacedTitles = new WordIndex<G>();
      file = { byLine: new Map(), longRange: new Set(), titles, unplacedTitles, all: [], inFile: new Set() };
      this.files.set(name, file);
    }
    return file;
  }
}

/** Ranges longer than this are not indexed line by line. */
const MAX_INDEXED_SPAN = 200;

function lineSpan(f: Place): { start: number; end: number } | null {
  if (f.line == null) return null;
  const end = Math.max(f.line, f.endLine ?? f.line);
  return end - f.line > MAX_INDEXED_SPAN ? null : { start: f.line, end };
}
