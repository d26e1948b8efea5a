// A reviewer's places for one finding, as the action keeps them. The envelope gives a finding a
// top-level file/line/endLine/replacement, a `locations` list, or both. They combine into one list:
// - the top-level place, when it names a file, is the first place; a location at the same file
//   and line (or, when the top level names no line, the first location in its file) is the same
//   place, and fills in what the top level left out;
// - without a top-level file, the first location is the first place;
// - each place is normalised like the single one always was (a leading "./" and blanks dropped,
//   a line only when positive, a range only past its line, a replacement only with a line and
//   without the line breaks at its end), a location without a file is dropped, the same file and
//   line is kept once, and at most MAX_LOCATIONS places are kept.
// The finding's own file and line are its first place, so its id (hashed from them) is the one a
// finding with a single place always had.
import { MAX_LOCATIONS, type RawFinding } from '../agents/envelope.js';
import type { Finding, FindingLocation } from '../domain/findings.js';

/** A finding path as the action keeps it: no leading "./", no surrounding blanks; empty is none. */
export function normalizePath(file: string | null | undefined): string | null {
  return file ? file.replace(/^\.\//, '').trim() || null : null;
}

function normalizePlace(
  file: string | null | undefined,
  rawLine?: number | null,
  endLine?: number | null,
  replacement?: string | null,
): FindingLocation {
  const line = typeof rawLine === 'number' && rawLine > 0 ? rawLine : null;
  return {
    file: normalizePath(file),
    line,
    endLine: line && typeof endLine === 'number' && endLine > line ? endLine : null,
    replacement: line && typeof replacement === 'string' ? withoutFinalBreaks(replacement) : null,
  };
}

/**
 * A replacement is whole lines: a line break at its end ends its last line and adds no empty line. The posted
 * suggestion drops it (GitHub's suggestion block would show it as an empty line), so the fixer gets the same text
 * a person would commit. A loop from the end, not a regex: `(\r?\n)+$` backtracks over a long run of breaks.
 */
function withoutFinalBreaks(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
  return text.slice(0, end);
}

/** The finding's places, first place first; never empty (a finding without a file has one, file null). */
export function findingPlaces(raw: RawFinding): FindingLocation[] {
  const top = normalizePlace(raw.file, raw.line, raw.endLine, raw.replacement);
  const listed = (raw.locations ?? [])
    .map((l) => normalizePlace(l.file, l.line, l.endLine, l.replacement))
    .filter((p) => p.file !== null);
  if (listed.length === 0) return [top];
  if (top.file === null) return distinct(listed);
  const same = listed.findIndex((p) => p.file === top.file && (top.line === null || p.line === top.line));
  if (same < 0) return distinct([top, ...listed]);
  const at = listed[same]!;
  const first =
    top.line === null
      ? at
      : {
          ...top,
          endLine: top.endLine ?? at.endLine,
          replacement: top.replacement ?? at.replacement,
        };
  return distinct([first, ...listed.filter((_p, i) => i !== same)]);
}

/** Each file and line once, the first kept; at most MAX_LOCATIONS. */
function distinct(places: FindingLocation[]): FindingLocation[] {
  const seen = new Set<string>();
  return places
    .filter((p) => {
      const key = `${p.line ?? ''}:${p.file}`;
      return !seen.has(key) && seen.add(key);
    })
    .slice(0, MAX_LOCATIONS);
}

/** Every place of a finding with what to show there: its locations, or its own file and line. */
export function locationsOf(f: Finding): FindingLocation[] {
  if (f.locations && f.locations.length > 1) return f.locations;
  return [{ file: f.file, line: f.line, endLine: f.endLine ?? null, replacement: f.replacement ?? null }];
}
