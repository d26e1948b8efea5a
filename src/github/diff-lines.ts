// Which lines of the head a review comment may sit on. GitHub takes a comment on the
// RIGHT side only on a line of a hunk of the PR's diff (an added line or a context line), and a
// multi-line comment only on a range inside one hunk; anything else is refused with 422
// ("pull_request_review_thread.line must be part of the diff", "start_line must be part of the
// same hunk as the line"). The action's diff (PrContext.diff, `git diff` of the merge base and
// the head, 3 lines of context like GitHub's) has the same hunks.

/** New-file line ranges of each file's hunks, inclusive, by the file's path in the head. */
export type DiffLines = Map<string, [number, number][]>;

const FILE_HEADER = /^\+\+\+ (?:b\/(.*)|\/dev\/null)$/;
const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Reads hunk headers only between hunks: inside one, its line counts say where it ends, so an
 * added line that reads "++ x" (`+++ x` in the diff) is not taken for a file header.
 */
export function diffLines(diff: string): DiffLines {
  const out: DiffLines = new Map();
  let hunks: [number, number][] | null = null;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of diff.split('\n')) {
    if (oldLeft > 0 || newLeft > 0) {
      if (line.startsWith('\\')) continue; // "\ No newline at end of file"
      if (!line.startsWith('+')) oldLeft--;
      if (!line.startsWith('-')) newLeft--;
      continue;
    }
    if (line.startsWith('diff --git ')) {
      hunks = null;
      continue;
    }
    const file = line.startsWith('+++ ') ? FILE_HEADER.exec(line) : null;
    if (line.startsWith('+++ ')) {
      // A quoted path (git quotes unusual characters) is left out rather than guessed.
      const name = file?.[1];
      hunks = name === undefined ? null : (out.get(name) ?? []);
      if (hunks && name !== undefined) out.set(name, hunks);
      continue;
    }
    const hunk = HUNK_HEADER.exec(line);
    if (!hunk) continue;
    oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
    const start = Number(hunk[2]);
    newLeft = hunk[3] === undefined ? 1 : Number(hunk[3]);
    // A hunk that only deletes has no new lines (`+5,0`).
    if (hunks && newLeft > 0) hunks.push([start, start + newLeft - 1]);
  }
  return out;
}

/**
 * Where a comment for `file` at `line` (to `endLine`) may go: the same range when it lies inside
 * one hunk, the single line when only the range's end does not, else null (outside the diff).
 */
export function commentRange(
  lines: DiffLines,
  file: string | null,
  line: number | null,
  endLine: number | null,
): { start: number | null; line: number } | null {
  if (!file || !line) return null;
  const hunk = lines.get(file)?.find(([a, b]) => line >= a && line <= b);
  if (!hunk) return null;
  if (endLine && endLine > line && endLine <= hunk[1]) return { start: line, line: endLine };
  return { start: null, line };
}
