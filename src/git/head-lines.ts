// How many lines each of some files has at a commit, for checking the places reviewers give
// (review/places-in-head.ts). Two git processes for a round's findings: one
// `git cat-file --batch-check` tells blobs from folders, submodules and missing paths and gives
// each blob's size (an empty blob has no lines, and `git grep` would not name it), then one
// `git grep -c` counts the lines of the non-empty blobs (one more for each further 256 KiB of
// names, which only thousands of long names fill).
//
// `git grep -c ''` counts lines as an editor numbers them: every '\n' ends one, and a last line
// without one counts too. The runner decodes git's output as UTF-8, so the blobs' bytes are
// never read here: `cat-file --batch` would have to be split by byte counts.
//
// A binary file is counted like any other (`-a`: its '\n' bytes end its lines), not left out: a
// place in it past its last '\n' is as impossible as in a text file.
import type { Git } from './runner.js';

/** A name git would not read from the repository's root: a leading `/`, a `.` or `..` segment. */
const OUTSIDE = /^\/|(^|\/)\.{1,2}(\/|$)/;

/** Lines per path at `commit`; null for a path absent there, not a blob (a folder, a submodule), or unknown. */
export async function linesAtCommit(
  git: Git,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, number | null>> {
  const lines = new Map<string, number | null>(paths.map((p) => [p, null]));
  // One name per line of cat-file's input: a name with a line break would shift every later
  // answer; a NUL byte cannot be an argument. A `.` or `..` segment or a leading `/` is read from
  // the folder git runs in, and one name outside the repository fails the whole batch. Such names
  // stay unknown.
  const asked = [...new Set(paths)].filter((p) => p && !/[\0\r\n]/.test(p) && !OUTSIDE.test(p));
  if (!asked.length) return lines;
  const sizes = await blobSizes(git, commit, asked);
  if (!sizes) return lines;
  const nonEmpty: string[] = [];
  for (const [p, size] of sizes) {
    if (size === 0) lines.set(p, 0);
    else nonEmpty.push(p);
  }
  if (!nonEmpty.length) return lines;
  for (const chunk of byArgumentBytes(nonEmpty)) {
    const counts = await lineCounts(git, commit, chunk);
    for (const [p, n] of counts) lines.set(p, n);
  }
  return lines;
}

/** The lines of each of `paths` (non-empty blobs at `commit`) that git counted; none when it failed. */
async function lineCounts(git: Git, commit: string, paths: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  // `:(literal)`: a name is a name, not a glob or pathspec magic the PR's file names could spell.
  // `top` and `--full-name`: names from the repository's root, as cat-file reads them, whatever
  // folder of the checkout git runs in.
  const specs = paths.map((p) => `:(top,literal)${p}`);
  const args = ['grep', '-z', '-c', '-a', '--full-name', '--no-color', '-e', '', commit, '--', ...specs];
  const r = await git(args, { allowFail: true });
  // 1: nothing matched (cannot happen for a non-empty blob, but is no failure).
  if (r.code !== 0 && r.code !== 1) return counts;
  const wanted = new Set(paths);
  const prefix = `${commit}:`;
  // Each answer is `<commit>:<path>\0<count>\n`; the path may hold any byte but NUL and '\n'.
  for (const entry of r.stdout.split('\n')) {
    const nul = entry.lastIndexOf('\0');
    if (nul < 0 || !entry.startsWith(prefix)) continue;
    const p = entry.slice(prefix.length, nul);
    const count = Number(entry.slice(nul + 1));
    if (wanted.has(p) && Number.isSafeInteger(count)) counts.set(p, count);
  }
  return counts;
}

/**
 * The paths in groups whose names fit one command line: the reviewers' places can name thousands
 * of files of up to 1,024 characters, more than the system takes in one process's arguments.
 */
function byArgumentBytes(paths: readonly string[]): string[][] {
  const chunks: string[][] = [];
  let size = Infinity;
  for (const p of paths) {
    const bytes = Buffer.byteLength(p) + PER_PATH;
    if (size + bytes > MAX_ARGUMENT_BYTES) {
      chunks.push([]);
      size = 0;
    }
    chunks[chunks.length - 1]!.push(p);
    size += bytes;
  }
  return chunks;
}

/** Bytes of path names per `git grep`: far below Linux's 2 MiB for arguments and environment. */
const MAX_ARGUMENT_BYTES = 256 * 1024;
/** Each name's `:(top,literal)` prefix, the NUL that ends it and the pointer to it. */
const PER_PATH = 24;

/** Each path that is a blob at `commit`, with its size in bytes; null when git failed. */
async function blobSizes(git: Git, commit: string, paths: readonly string[]): Promise<Map<string, number> | null> {
  const input = paths.map((p) => `${commit}:${p}\n`).join('');
  const r = await git(['cat-file', '--batch-check=%(objecttype) %(objectsize)'], { input, allowFail: true });
  if (r.code !== 0) return null;
  const answers = r.stdout.split('\n');
  const sizes = new Map<string, number>();
  paths.forEach((p, i) => {
    const m = /^blob (\d+)$/.exec(answers[i] ?? '');
    if (m) sizes.set(p, Number(m[1]));
  });
  return sizes;
}
