// Where a round's findings go on the diff: each place of a finding that lies on a line of the
// diff gets a comment, and a finding with several places (one problem repeated in several spots)
// gets one on each of those, yet counts once toward quiet mode's cap: the cap is about how many
// problems a round raises inline, not how many lines show them. Pure.
import { commentRange, type DiffLines } from '../github/diff-lines.js';
import type { InlineComment } from '../github/review-api.js';
import { locationsOf } from '../review/finding-places.js';
import type { Finding, FindingLocation } from '../domain/findings.js';
import { priorityRank } from '../domain/priority.js';
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
  const shown = chosen.flatMap(({ spots, ...f }) =>
    spots.map(({ place, range }) => {
      // A replacement for a range that could not be kept whole would replace the wrong lines.
      const whole = (range.start === null) === !(place.endLine && place.endLine > (place.line ?? 0));
      const replacement = whole ? place.replacement : null;
      return { finding: { ...f, file: place.file, line: place.line, endLine: place.endLine, replacement }, range };
    }),
  );
  const clashes = suggestionClashes(shown);
  return shown.map(({ finding, range }, i) => {
    const clash = clashes.get(i);
    const f = clash ? { ...finding, replacement: null } : finding;
    const text = body(renderInlineComment(f, reviewers, clash ? { clashesWith: clash } : {}));
    return { path: finding.file!, line: range.line, startLine: range.start, body: text };
  });
}

interface ShownSpot {
  finding: Finding;
  range: { start: number | null; line: number };
}

/**
 * Two committable suggestions on overlapping lines cannot both be applied: GitHub applies one and
 * the other then replaces lines that are no longer there. The more severe finding keeps its
 * suggestion (equal: more reviewers, then the lower id); each other one that overlaps a kept one
 * loses it, and is mapped to the id of the finding that kept it.
 */
function suggestionClashes(spots: readonly ShownSpot[]): Map<number, string> {
  const order = spots
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => s.finding.replacement !== undefined && s.finding.replacement !== null)
    .sort(
      (a, b) =>
        priorityRank(a.s.finding.priority) - priorityRank(b.s.finding.priority) ||
        b.s.finding.reportedBy.length - a.s.finding.reportedBy.length ||
        (a.s.finding.id < b.s.finding.id ? -1 : a.s.finding.id > b.s.finding.id ? 1 : 0),
    );
  const kept: ShownSpot[] = [];
  const clashes = new Map<number, string>();
  for (const { s, i } of order) {
    const winner = kept.find((k) => k.finding.id !== s.finding.id && overlap(k, s));
    if (winner) clashes.set(i, winner.finding.id);
    else kept.push(s);
  }
  return clashes;
}

function overlap(a: ShownSpot, b: ShownSpot): boolean {
  if (a.finding.file !== b.finding.file) return false;
  const [aFrom, bFrom] = [a.range.start ?? a.range.line, b.range.start ?? b.range.line];
  return aFrom <= b.range.line && bFrom <= a.range.line;
}
