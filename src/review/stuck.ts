// Stuck findings (SPEC §5): a finding the fixer reported fixed that reappears later.
// Fixes move lines, so reappearance ignores line numbers and follows renames.
import { sameProblem } from './similarity.js';
import type { Finding } from './types.js';

export interface FixedFingerprint {
  id: string;
  category: string;
  file: string | null;
  title: string;
}

export function fingerprint(f: Finding): FixedFingerprint {
  return { id: f.id, category: f.category, file: f.file, title: f.title };
}

export function markStuck(
  findings: Finding[],
  fixedBefore: FixedFingerprint[],
  renames?: ReadonlyMap<string, string>,
): { active: Finding[]; stuck: Finding[] } {
  const active: Finding[] = [];
  const stuck: Finding[] = [];
  for (const f of findings) {
    const back =
      f.source.type === 'agent' &&
      fixedBefore.some(
        (p) =>
          p.id === f.id || sameProblem({ ...p, line: null }, f, { useLines: false, ...(renames ? { renames } : {}) }),
      );
    if (back) stuck.push({ ...f, stuck: true });
    else active.push(f);
  }
  return { active, stuck };
}
