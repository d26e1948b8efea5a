// Where a round's findings go on the diff: each place of a finding that lies on a line of the
// diff gets a comment, and a finding with several places (one problem repeated in several spots)
// gets one on each of those, yet counts once toward quiet mode's cap: the cap is about how many
// problems a round raises inline, not how many lines show them. Pure.
import { commentRange, type DiffLines } from '../github/diff-lines.js';
import type { InlineComment } from '../github/review-api.js';
import { locationsOf } from '../review/finding-places.js';
import type { Finding, FindingLocation } from '../domain/findings.js';
import { renderInlineComment } from './inline-comment.js';
import { selectInline, type HeldBack, type InlineQuiet } from './inline-selection.js';

interface Spot {
  place: FindingLocation;
  range: { start: number | null; line: number };
}

export type PlacedFinding = Finding & { spots: Spot[] };

/** The findings with a place on the diff (quiet mode applied), each with its places there. */
export function placeInline(
  findings: readonly Finding[],
  lines: DiffLines,
  quiet: InlineQuiet,
): { chosen: PlacedFinding[]; heldBack: HeldBack } {
  const placed = findings.flatMap((f) => {
    const spots = locationsOf(f).flatMap((place) => {
      const range = commentRange(lines, place.file, place.line, place.endLine);
      return range ? [{ place, range }] : [];
    });
    return spots.length ? [{ ...f, spots }] : [];
  });
  return selectInline(placed, quiet);
}

/** The comments of the chosen findings, one per spot; `body` turns a comment's text into what is posted. */
export function inlineComments(
  chosen: readonly PlacedFinding[],
  reviewers: number,
  body: (text: string) => string,
): InlineComment[] {
  return chosen.flatMap(({ spots, ...f }) =>
    spots.map(({ place, range }) => {
      // A replacement for a range that could not be kept whole would replace the wrong lines.
      const whole = (range.start === null) === !(place.endLine && place.endLine > (place.line ?? 0));
      const replacement = whole ? place.replacement : null;
      const shown = { ...f, file: place.file, line: place.line, endLine: place.endLine, replacement };
      const text = body(renderInlineComment(shown, reviewers));
      return { path: place.file!, line: range.line, startLine: range.start, body: text };
    }),
  );
}
