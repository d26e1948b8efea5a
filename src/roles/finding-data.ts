// A finding as the fixer, the gate and the confirmer read it. Every text in a finding was
// written by an agent that read the PR (title, body, diff, code comments: anyone's text), so
// an injection can ride on it. Those fields are handed over only fenced and labelled as
// untrusted data; the values the action computed or checked (id, priority, line) stay plain.
import { fenceAsData } from '../security/untrusted.js';
import type { Finding } from '../review/types.js';

export interface FindingData {
  id: string;
  priority: Finding['priority'];
  line: number | null;
  category: string;
  file: string | null;
  title: string;
  description: string;
  suggestion: string | null;
}

const fenced = (label: string, text: string | null): string | null => (text === null ? null : fenceAsData(label, text));

export function findingAsData(f: Finding): FindingData {
  return {
    id: f.id,
    priority: f.priority,
    line: f.line,
    category: fenceAsData('Finding category', f.category),
    file: fenced('Finding file path', f.file),
    title: fenceAsData('Finding title', f.title),
    description: fenceAsData('Finding description', f.description),
    suggestion: fenced('Suggested fix', f.suggestion),
  };
}
