// What later rounds are told about the round before: each finding of the last review
// with its fate, so reviewers check the fixes and the delta instead of starting over, and do not
// raise again what the fixer rejected with a reason unless they disagree with it. Pure.
import type { FixRoundRecord } from '../domain/fix.js';
import type { Finding, ReviewRoundRecord } from '../domain/findings.js';
import { hasSeveralPlaces } from './places.js';

type Fate = 'fixed' | 'rejected' | 'not-reproduced' | 'stuck' | 'open';

export interface EarlierFinding {
  id: string;
  priority: Finding['priority'];
  category: string;
  file: string | null;
  line: number | null;
  title: string;
  /** Every place, when it had several (the first is file/line above). */
  locations?: { file: string | null; line: number | null }[];
  fate: Fate;
  /** The commit that fixed it (fate `fixed`). */
  fixedIn?: string;
  /** The fixer's reason (fate `rejected`), or why the confirmer could not reproduce it. */
  reason?: string;
}

/** The last review's code findings and what became of them; human threads are not among them. */
export function earlierFindings(review: ReviewRoundRecord, fix: FixRoundRecord | null): EarlierFinding[] {
  const pushed = fix?.outcome === 'pushed' && fix.commitSha ? fix.commitSha : null;
  const fixed = new Set(pushed ? fix!.fixed.map((f) => f.findingId) : []);
  const rejected = new Map((fix?.rejected ?? []).map((r) => [r.findingId, r.reason]));
  const unconfirmed = new Map((fix?.unconfirmed ?? []).map((u) => [u.findingId, u.reason]));
  const of = (f: Finding, fate: Fate, extra: Partial<EarlierFinding> = {}): EarlierFinding => ({
    id: f.id,
    priority: f.priority,
    category: f.category,
    file: f.file,
    line: f.line,
    title: f.title,
    ...(hasSeveralPlaces(f) ? { locations: f.locations!.map((p) => ({ file: p.file, line: p.line })) } : {}),
    fate,
    ...extra,
  });
  const code = review.findings.filter((f) => f.source.type === 'agent');
  return [
    ...code.map((f) => {
      if (fixed.has(f.id)) return of(f, 'fixed', { fixedIn: pushed! });
      const reason = rejected.get(f.id);
      if (reason !== undefined) return of(f, 'rejected', { reason });
      const notReproduced = unconfirmed.get(f.id);
      return notReproduced !== undefined ? of(f, 'not-reproduced', { reason: notReproduced }) : of(f, 'open');
    }),
    ...review.stuck.map((f) => of(f, 'stuck')),
  ];
}
