// Rules per directory: besides the repository-wide `instructions`, a rules file (REVIEW.md unless
// the repository config names another) in any directory applies to the changed files below it,
// every ancestor's file, nearest first. They are read from the base branch, like the rest of the
// repository config: a PR cannot write the rules it is reviewed by.
import path from 'node:path';
import type { Git } from '../git/runner.js';

export interface DirectoryRules {
  /** The rules file's path in the repository (`REVIEW.md`, `src/api/REVIEW.md`). */
  path: string;
  text: string;
  /** The changed files it applies to, as files.json names them. */
  appliesTo: string[];
}

/** Rules files read at most; the rest are named in the log. */
const MAX_FILES = 30;
/** Characters of one rules file passed on; a longer one is cut, and says so. */
const MAX_CHARS = 8_000;

/** The rules files of the base commit that apply to `files`, nearest first for each file. */
export async function directoryRules(
  git: Git,
  baseSha: string,
  files: readonly string[],
  fileName: string,
): Promise<DirectoryRules[]> {
  if (!fileName) return [];
  const byDir = new Map<string, string[]>();
  for (const file of files) {
    for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
      const key = dir === '.' ? '' : dir;
      byDir.set(key, [...(byDir.get(key) ?? []), file]);
      if (key === '') break;
    }
  }
  // Deepest folders first: the nearest rules come first for every file they apply to.
  const dirs = [...byDir.keys()].sort((a, b) => depth(b) - depth(a) || a.localeCompare(b));
  const found: DirectoryRules[] = [];
  for (const dir of dirs) {
    if (found.length >= MAX_FILES) break;
    const rulesPath = dir ? `${dir}/${fileName}` : fileName;
    const r = await git(['cat-file', 'blob', `${baseSha}:${rulesPath}`], { allowFail: true });
    if (r.code !== 0 || !r.stdout.trim()) continue;
    const text = r.stdout.length > MAX_CHARS ? `${r.stdout.slice(0, MAX_CHARS)}\n[cut: the file is longer]` : r.stdout;
    found.push({ path: rulesPath, text: text.trim(), appliesTo: byDir.get(dir)! });
  }
  return found;
}

function depth(dir: string): number {
  return dir === '' ? 0 : dir.split('/').length;
}
