// Stuck findings: a finding the fixer reported fixed that reappears later.
// Fixes move lines, so reappearance ignores line numbers and follows renames.
import type { FixedFingerprint } from '../domain/findings.js';
import { sameProblem } from './similarity.js';
import type { Finding } from '../domain/findings.js';

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
  const opts = { useLines: false, ...(renames ? { renames } : {}) };
  for (const f of findings) {
    const ids = new Set([f.id, ...(f.aliases ?? [])]);
    const back =
      f.source.type === 'agent' && fixedBefore.some((p) => ids.has(p.id) || sameProblem({ ...p, line: null }, f, opts));
    if (back) stuck.push({ ...f, stuck: true });
    else active.push(f);
  }
  return { active, stuck };
}
