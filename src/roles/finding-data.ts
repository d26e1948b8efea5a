// A finding as the fixer, the gate and the confirmer read it. Every text in a finding was
// written by an agent that read the PR (title, body, diff, code comments: anyone's text), so
// an injection can ride on it. Those fields are handed over only fenced and labelled as
// untrusted data; the values the action computed or checked (id, priority, line, and a file path
// that is one of the PR's files, as files.json lists them) stay plain, so a model reads a real
// path as a path.
import { fenceAsData } from '../security/untrusted.js';
import type { Finding } from '../domain/findings.js';

export interface FindingData {
  id: string;
  priority: Finding['priority'];
  line: number | null;
  category: string;
  file: string | null;
  title: string;
  description: string;
  suggestion: string | null;
  /** Every place of a problem found in several spots (the first is file/line above); fix it at each. */
  locations?: { file: string | null; line: number | null }[];
}

const fenced = (label: string, text: string | null): string | null => (text === null ? null : fenceAsData(label, text));

/** `prFiles`: the paths of the PR's files; a finding's path that is one of them is shown plain. */
export function findingAsData(f: Finding, prFiles: ReadonlySet<string> = new Set()): FindingData {
  const path = (file: string | null) => (file !== null && prFiles.has(file) ? file : fenced('Finding file path', file));
  const data: FindingData = {
    id: f.id,
    priority: f.priority,
    line: f.line,
    category: fenceAsData('Finding category', f.category),
    file: path(f.file),
    title: fenceAsData('Finding title', f.title),
    description: fenceAsData('Finding description', f.description),
    suggestion: fenced('Suggested fix', f.suggestion),
  };
  if (!f.locations || f.locations.length < 2) return data;
  return { ...data, locations: f.locations.map((p) => ({ file: path(p.file), line: p.line })) };
}

/** The paths of the PR's files (the names files.json gives them). */
export function prFilePaths(files: readonly { filename: string }[]): ReadonlySet<string> {
  return new Set(files.map((f) => f.filename));
}
