// Stuck findings: a finding the fixer reported fixed that reappears later.
// Fixes move lines, so reappearance ignores line numbers and follows renames.
import type { FixedFingerprint } from '../domain/findings.js';
import { sameProblem } from './similarity.js';
import type { Finding } from '../domain/findings.js';

export function fingerprint(f: Finding): FixedFingerprint {
  return { id: f.id, category: f.category, file: f.file, title: f.title };
}

/**
 * A fixed finding as the run remembers it: the finding, and each other member of its group in its
 * own words. A later round asks each reviewer to report a finding that is not fixed with its own
 * title (review/later-round.ts), which may share few words with the group's.
 */
export function fixedFingerprints(f: Finding): FixedFingerprint[] {
  const all = [fingerprint(f)];
  for (const m of f.members ?? []) {
    if (!all.some((p) => p.title === m.title && p.file === m.file)) {
      all.push({ id: m.id, category: m.category, file: m.file, title: m.title });
    }
  }
  return all;
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
