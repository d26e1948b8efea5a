// Which lines of the head a review comment may sit on (issue 11). GitHub takes a comment on the
// RIGHT side only on a line of a hunk of the PR's diff (an added line or a context line), and a
// multi-line comment only on a range inside one hunk; anything else is refused with 422
// ("pull_request_review_thread.line must be part of the diff", "start_line must be part of the
// same hunk as the line"). The action's diff (PrContext.diff, `git diff` of the merge base and
// the head, 3 lines of context like GitHub's) has the same hunks.

/** New-file line ranges of each file's hunks, inclusive, by the file's path in the head. */
export type DiffLines = Map<string, [number, number][]>;

const FILE_HEADER = /^\+\+\+ (?:b\/(.*)|\/dev\/null)$/;
const HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

export function diffLines(diff: string): DiffLines {
  const out: DiffLines = new Map();
  let hunks: [number, number][] | null = null;
  for (const line of diff.split('\n')) {
    const file = FILE_HEADER.exec(line);
    if (file) {
      hunks = file[1] === undefined ? null : (out.get(unquote(file[1])) ?? []);
      if (hunks && file[1] !== undefined) out.set(unquote(file[1]), hunks);
      continue;
    }
    const hunk = HUNK_HEADER.exec(line);
    if (hunk && hunks) {
      const start = Number(hunk[1]);
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      // A hunk that only deletes has no new lines (`+5,0`).
      if (count > 0) hunks.push([start, start + count - 1]);
    }
  }
  return out;
}

/** Git quotes paths with unusual characters ("b/a\tb"); those are left out rather than guessed. */
function unquote(p: string): string {
  return p.trimEnd();
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
