// A reviewer's places checked against the files at the PR head, before the round groups them. A
// model that reads two files at once can give one file's line numbers to the other: a place past
// the file's last line would reach the fixer, the report and the inline review, where GitHub
// refuses it. Each place of a raw finding (its top-level file and line, and each of its
// `locations`; finding-places.ts combines them) is checked on its own:
// - its line past the file's last line: the place is left out when the finding has another place
//   inside its file; when it has none, its first place is kept for the whole file (no line, range
//   or replacement), so no finding is lost;
// - its line inside but its range's end past the last line: the range is unknown, so the line is
//   kept without the range and without the replacement (which was the range's new text);
// - a file the head does not hold (null: deleted, or not a file): the place stays as it is.
import type { RawFinding } from '../agents/envelope.js';
import { normalizePath } from './finding-places.js';

/** Lines per file at the PR head; null for a file the head does not hold. */
export type HeadLines = ReadonlyMap<string, number | null>;

type Place = Pick<RawFinding, 'file' | 'line' | 'endLine' | 'replacement'>;

type Verdict = { kind: 'inside' } | { kind: 'past'; lines: number } | { kind: 'rangePast'; lines: number };

/** The files a finding's places name, as the action keeps their paths: what to count the lines of. */
export function placeFiles(findings: readonly RawFinding[]): string[] {
  const files = findings.flatMap((f) => [f.file, ...(f.locations ?? []).map((l) => l.file)].map(normalizePath));
  return [...new Set(files.filter((f): f is string => f !== null))];
}

/**
 * The finding with its places checked against `lines`, and what was changed, one phrase per place
 * (empty when nothing was): "place lib/a.js:252 is past the file's end (181 lines); left out".
 */
export function placesInHead(finding: RawFinding, lines: HeadLines): { finding: RawFinding; changes: string[] } {
  const top = verdict(finding, lines);
  const listed = (finding.locations ?? []).map((l) => verdict(l, lines));
  const all = [top, ...listed];
  if (all.every((v) => v.kind === 'inside')) return { finding, changes: [] };
  // A place with a file whose line is not past its end: when there is none, the finding keeps one.
  const hasFile = (p: Place) => normalizePath(p.file) !== null;
  const anyKept = [finding, ...(finding.locations ?? [])].some((p, i) => hasFile(p) && all[i]!.kind !== 'past');
  const changes: string[] = [];
  const note = (p: Place, v: Verdict, fate: string) => {
    if (v.kind === 'inside') return;
    const place = `place ${where(p)} `;
    // The top-level place again in `locations` is one place: said once, with its first fate.
    if (changes.some((c) => c.startsWith(place))) return;
    changes.push(`${place}${v.kind === 'past' ? 'is' : 'ends'} past the file's end (${v.lines} lines); ${fate}`);
  };
  /** Whether the next place past the end is kept for its whole file: the first one, when no place is left. */
  let wholeFile = !anyKept;
  const fix = (p: Place, v: Verdict): Place | null => {
    if (v.kind === 'rangePast') {
      note(p, v, 'its range and replacement left out');
      return { ...p, endLine: null, replacement: null };
    }
    if (v.kind !== 'past') return p;
    if (!wholeFile) {
      note(p, v, 'left out');
      return null;
    }
    wholeFile = false;
    note(p, v, 'kept for the whole file');
    return { ...p, line: null, endLine: null, replacement: null };
  };
  const out: RawFinding = {
    ...finding,
    ...(fix(finding, top) ?? { file: null, line: null, endLine: null, replacement: null }),
  };
  if (finding.locations) {
    out.locations = finding.locations.flatMap((l, i) => {
      const p = fix(l, listed[i]!);
      return p ? [{ ...l, ...p, file: p.file ?? null }] : [];
    });
  }
  return { finding: out, changes };
}

function verdict(p: Place, lines: HeadLines): Verdict {
  const file = normalizePath(p.file);
  const count = file === null ? null : lines.get(file);
  if (typeof count !== 'number' || typeof p.line !== 'number' || p.line <= 0) return { kind: 'inside' };
  if (p.line > count) return { kind: 'past', lines: count };
  if (typeof p.endLine === 'number' && p.endLine > count) return { kind: 'rangePast', lines: count };
  return { kind: 'inside' };
}

function where(p: Place): string {
  const range = typeof p.endLine === 'number' && p.endLine > p.line! ? `-${p.endLine}` : '';
  return `${normalizePath(p.file)}:${p.line}${range}`;
}
