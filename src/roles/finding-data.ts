// A finding as the fixer, the gate and the confirmer read it. Every text in a finding was
// written by an agent that read the PR (title, body, diff, code comments: anyone's text), so
// an injection can ride on it. Those fields are handed over only fenced and labelled as
// untrusted data, a reviewer's replacement code included; the values the action computed or
// checked (id, priority, the line numbers, and a file path that is one of the PR's files, as
// files.json lists them) stay plain, so a model reads a real path as a path.
import { fenceAsData } from '../security/untrusted.js';
import type { Finding } from '../domain/findings.js';

/** One place of a finding: where it is, and the exact new text of its lines when the reviewer gave one. */
interface PlaceData {
  file: string | null;
  line: number | null;
  endLine: number | null;
  /** Fenced: a proposal to check against the code, never text to paste unread. */
  replacement: string | null;
}

export interface FindingData extends PlaceData {
  id: string;
  priority: Finding['priority'];
  category: string;
  title: string;
  description: string;
  suggestion: string | null;
  /** Every place of a problem found in several spots (the first is file/line above); fix it at each. */
  locations?: PlaceData[];
  /**
   * A question the maintainers answered: the question and the option they chose, as the agents wrote
   * them when asking (never the person's own words), fenced like every agent's text.
   */
  decided?: { question: string; option: string };
  /**
   * The same problem as the group's other members reported it, in their own words and at their own
   * place: grouping shows one member's text, and a case or place only another named must not be lost.
   */
  otherReports?: OtherReportData[];
}

/** One other member of a grouped finding: its text fenced, its place as a finding's is. */
interface OtherReportData {
  title: string;
  description: string;
  file: string | null;
  line: number | null;
  /** Its places, when it named several. */
  locations?: { file: string | null; line: number | null }[];
}

const fenced = (label: string, text: string | null): string | null => (text === null ? null : fenceAsData(label, text));

/** `prFiles`: the paths of the PR's files; a finding's path that is one of them is shown plain. */
export function findingAsData(f: Finding, prFiles: ReadonlySet<string> = new Set()): FindingData {
  const path = (file: string | null) => (file !== null && prFiles.has(file) ? file : fenced('Finding file path', file));
  const place = (p: Pick<Finding, 'file' | 'line' | 'endLine' | 'replacement'>): PlaceData => ({
    file: path(p.file),
    line: p.line,
    endLine: p.endLine ?? null,
    replacement: fenced('Suggested replacement', p.replacement ?? null),
  });
  const { replacement, ...where } = place(f);
  const data: FindingData = {
    id: f.id,
    priority: f.priority,
    category: fenceAsData('Finding category', f.category),
    ...where,
    title: fenceAsData('Finding title', f.title),
    description: fenceAsData('Finding description', f.description),
    suggestion: fenced('Suggested fix', f.suggestion),
    replacement,
  };
  const answer = f.decision?.answer;
  const option = answer ? f.decision!.options[answer.chosen - 1] : undefined;
  if (option !== undefined) {
    data.decided = {
      question: fenceAsData('Question the maintainers answered', f.decision!.question),
      option: fenceAsData('Option the maintainers chose', option),
    };
  }
  const others = otherReports(f, path);
  if (others.length) data.otherReports = others;
  if (!f.locations || f.locations.length < 2) return data;
  return { ...data, locations: f.locations.map(place) };
}

/** The group's members but the shown one (it has the group's id), and any that only repeat its words. */
function otherReports(f: Finding, path: (file: string | null) => string | null): OtherReportData[] {
  const others = (f.members ?? []).filter(
    (m) => m.id !== f.id && !(m.title === f.title && m.description === f.description),
  );
  return others.map((m) => ({
    title: fenceAsData('Other report title', m.title),
    description: fenceAsData('Other report description', m.description),
    file: path(m.file),
    line: m.line,
    ...(m.locations && m.locations.length > 1
      ? { locations: m.locations.map((p) => ({ file: path(p.file), line: p.line })) }
      : {}),
  }));
}

/** The paths of the PR's files (the names files.json gives them). */
export function prFilePaths(files: readonly { filename: string }[]): ReadonlySet<string> {
  return new Set(files.map((f) => f.filename));
}
