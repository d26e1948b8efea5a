// Rules per directory: besides the repository-wide `instructions`, a rules file (REVIEW.md unless
// the repository config names another) in any directory applies to the changed files below it,
// every ancestor's file, nearest first. They are read from the base branch, like the rest of the
// repository config: a PR cannot write the rules it is reviewed by.
//
// The PR names the folders (its changed files), so their number is the PR's to choose: 600 files
// 32 folders deep are 19,000 folders. All of them are looked up by one `git cat-file --batch-check`,
// at most MAX_FOLDERS of them (the shallowest: their rules apply to the most files), and what a base
// commit answered is kept for the later rounds of the run, which only ask about folders new to it.
import type { Git } from '../git/runner.js';

export interface DirectoryRules {
  /** The rules file's path in the repository (`REVIEW.md`, `src/api/REVIEW.md`). */
  path: string;
  text: string;
  /** The changed files it applies to, as files.json names them. */
  appliesTo: string[];
}

/** The rules files of the base commit that apply to `files`, nearest first for each file. */
export type DirectoryRulesLookup = (baseSha: string, files: readonly string[]) => Promise<DirectoryRules[]>;

/** Rules files read at most; the rest are named in the log. */
const MAX_FILES = 30;
/** Characters of one rules file passed on; a longer one is cut, and says so. */
const MAX_CHARS = 8_000;
/** Folders looked up per round at most, the shallowest first; how many more there were is logged. */
const MAX_FOLDERS = 10_000;

interface LookupOptions {
  git: Git;
  /** The rules file's name; '' turns rules per directory off. */
  fileName: string;
  log: (line: string) => void;
  /** Folders looked up per round at most (MAX_FOLDERS). */
  maxFolders?: number;
}

/** One lookup for the run: it remembers each base commit's answers across rounds. */
export function directoryRulesLookup(opts: LookupOptions): DirectoryRulesLookup {
  const { git, fileName, log } = opts;
  const maxFolders = opts.maxFolders ?? MAX_FOLDERS;
  /** Per base commit: the folders already looked up, and the blob of the rules file in each (null: none). */
  const answers = new Map<string, Map<string, string | null>>();
  /** Rules file texts by blob: the same file is read once per run. */
  const texts = new Map<string, string>();

  return async (baseSha, files) => {
    if (!fileName) return [];
    const { folders, total } = candidateFolders(files, maxFolders);
    if (total > folders.length) {
      log(
        `review: the changed files are in ${total} folders; ${fileName} was looked for in the ` +
          `${folders.length} shallowest only, not in the other ${total - folders.length}`,
      );
    }
    const known = answers.get(baseSha) ?? new Map<string, string | null>();
    answers.set(baseSha, known);
    const ask = folders.filter((dir) => !known.has(dir));
    if (ask.length) {
      const found = await lookUp(
        git,
        baseSha,
        ask.map((dir) => rulesPathOf(dir, fileName)),
      );
      // Not kept when git failed: the next round asks again.
      if (found) ask.forEach((dir, i) => known.set(dir, found[i] ?? null));
      else log(`review: the rules files of the changed folders could not be looked up (git cat-file failed)`);
    }
    const hits = folders.filter((dir) => known.get(dir)).sort((a, b) => depth(b) - depth(a) || a.localeCompare(b));
    const rules: DirectoryRules[] = [];
    const left: string[] = [];
    for (const dir of hits) {
      const rulesPath = rulesPathOf(dir, fileName);
      if (rules.length >= MAX_FILES) {
        left.push(rulesPath);
        continue;
      }
      const oid = known.get(dir)!;
      let text = texts.get(oid);
      if (text === undefined) {
        const r = await git(['cat-file', 'blob', oid], { allowFail: true });
        text = r.code === 0 ? r.stdout : '';
        texts.set(oid, text);
      }
      if (!text.trim()) continue;
      const cut = text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n[cut: the file is longer]` : text;
      rules.push({ path: rulesPath, text: cut.trim(), appliesTo: filesBelow(dir, files) });
    }
    if (left.length) log(`review: ${MAX_FILES} rules files given to the reviewers; not the farther ${left.join(', ')}`);
    return rules;
  };
}

/**
 * The blob at each of `paths` in `baseSha`, or null where there is none (or it is empty, or a folder):
 * one `git cat-file --batch-check`, one line in and one line out per path. Null when git failed.
 */
async function lookUp(git: Git, baseSha: string, paths: readonly string[]): Promise<Array<string | null> | null> {
  // A line is one name: a path holding a line break would be read as two, and then every later
  // answer would belong to the wrong folder. Such folders are not asked about.
  const asked = paths.filter((p) => !/[\r\n]/.test(p));
  const input = asked.map((p) => `${baseSha}:${p}\n`).join('');
  const r = await git(['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], {
    input,
    allowFail: true,
  });
  if (r.code !== 0) return null;
  const lines = r.stdout.split('\n');
  const byPath = new Map<string, string>();
  asked.forEach((p, i) => {
    const m = /^([0-9a-f]{40,64}) blob (\d+)$/.exec(lines[i] ?? '');
    if (m && Number(m[2]) > 0) byPath.set(p, m[1]!);
  });
  return paths.map((p) => byPath.get(p) ?? null);
}

/**
 * Every folder holding a changed file or above one ('' is the root), or the shallowest `max` of
 * them when there are more; `total` counts them all. Linear in the length of the file names: the files'
 * folders are sorted so that each folder's subfolders follow it, and then a folder is new exactly
 * where a file's folder leaves the one before it.
 */
export function candidateFolders(files: readonly string[], max: number): { folders: string[]; total: number } {
  const leaves = [...new Set(files.map(folderOf))].sort(bySegments);
  const news: Array<{ dir: string; from: number; to: number }> = [];
  /** Folders first met at each depth (the root, depth 0, is always one). */
  const perDepth: number[] = [1];
  let total = 1;
  let previous = '';
  for (const dir of leaves) {
    const from = sharedDepth(previous, dir) + 1;
    const to = depth(dir);
    for (let d = from; d <= to; d++) perDepth[d] = (perDepth[d] ?? 0) + 1;
    if (to >= from) news.push({ dir, from, to });
    total += Math.max(0, to - from + 1);
    previous = dir;
  }
  // The deepest level taken whole, and how many of the next one fit besides.
  let whole = -1;
  let taken = 0;
  while (whole + 1 < perDepth.length && taken + perDepth[whole + 1]! <= max) taken += perDepth[++whole]!;
  let partial = max - taken;
  const folders = whole >= 0 ? [''] : [];
  for (const { dir, from, to } of news) {
    if (from > whole + 1) continue;
    let end = -1;
    for (let d = 1; d <= Math.min(to, whole + 1); d++) {
      // The folder at depth d ends at the d-th '/' of dir, or with dir.
      end = dir.indexOf('/', end + 1);
      if (end < 0) end = dir.length;
      if (d < from) continue;
      if (d === whole + 1) {
        if (partial === 0) break;
        partial--;
      }
      folders.push(dir.slice(0, end));
    }
  }
  return { folders, total };
}

function folderOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash < 0 ? '' : file.slice(0, slash);
}

/** Segment by segment: `a/b` and all below it sort before `a.b` and `a/b.c` after `a/b/x`. */
function bySegments(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === 47) return -1; // '/' ends a's segment first: a's folder sorts first
    if (y === 47) return 1;
    return x - y;
  }
  return a.length - b.length;
}

/** The number of leading folders `a` and `b` have in common. */
function sharedDepth(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let shared = 0;
  let i = 0;
  for (; i < n && a.charCodeAt(i) === b.charCodeAt(i); i++) if (a.charCodeAt(i) === 47) shared++;
  const endA = i === a.length || a.charCodeAt(i) === 47;
  const endB = i === b.length || b.charCodeAt(i) === 47;
  return i > 0 && endA && endB ? shared + 1 : shared;
}

function filesBelow(dir: string, files: readonly string[]): string[] {
  if (!dir) return [...files];
  const prefix = `${dir}/`;
  return files.filter((f) => f.startsWith(prefix));
}

function rulesPathOf(dir: string, fileName: string): string {
  return dir ? `${dir}/${fileName}` : fileName;
}

function depth(dir: string): number {
  if (dir === '') return 0;
  let n = 1;
  for (let i = dir.indexOf('/'); i >= 0; i = dir.indexOf('/', i + 1)) n++;
  return n;
}
