// What later rounds are told about the round before: each finding of the last review
// with its fate and its words, so reviewers check the fixes and the delta instead of starting
// over, and do not raise again what the fixer rejected with a reason unless they disagree with it.
// Each reviewer is also told its own words for the findings it reported (a merged group shows
// one member's title; the others wrote theirs), in a part of its prompt of its own. Pure.
import type { FixRoundRecord } from '../domain/fix.js';
import type { Finding, ReviewRoundRecord } from '../domain/findings.js';
import { hasSeveralPlaces } from './places.js';

type Fate = 'fixed' | 'rejected' | 'not-reproduced' | 'stuck' | 'open' | 'handed-back' | 'decision';

export interface EarlierFinding {
  id: string;
  priority: Finding['priority'];
  category: string;
  file: string | null;
  line: number | null;
  title: string;
  /**
   * What was wrong and how to fix it, as the finding's shown member put it: a case named only
   * here ("1e+21") can be checked. Absent for a review of an earlier run, whose hidden state keeps
   * titles only.
   */
  description?: string;
  suggestion?: string | null;
  /** Every place, when it had several (the first is file/line above). */
  locations?: { file: string | null; line: number | null }[];
  fate: Fate;
  /** The commit that fixed it (fate `fixed`). */
  fixedIn?: string;
  /** The fixer's reason (fate `rejected`), or why the confirmer could not reproduce it. */
  reason?: string;
  /**
   * The question for the maintainers and its options: the fixer's (fate `handed-back`: a P0 it says
   * only they can decide, which the reviewers may mark a decision) or the open decision's (`decision`).
   */
  question?: string;
  options?: string[];
  /**
   * The models (`agent:model`) that wrote its fix (fate `fixed`): the reviewer on one of them is
   * told the fix is its own (fix-checks.ts). Never in the shared file (sharedEarlier).
   */
  fixedBy?: string[];
  /**
   * Each reviewer's own report of it (reviewer-1 → its title and place): only that reviewer's
   * prompt shows them (ownEarlierReports), never the shared earlier-findings.json (sharedEarlier).
   */
  ownReports?: Record<string, OwnReport[]>;
}

/** A reviewer's own report of an earlier finding: the words and the place it gave. */
interface OwnReport {
  file: string | null;
  line: number | null;
  title: string;
}

/** The last review's code findings and what became of them; human threads are not among them. */
export function earlierFindings(review: ReviewRoundRecord, fix: FixRoundRecord | null): EarlierFinding[] {
  const pushed = fix?.outcome === 'pushed' && fix.commitSha ? fix.commitSha : null;
  const fixed = new Set(pushed ? fix!.fixed.map((f) => f.findingId) : []);
  const rejected = new Map((fix?.rejected ?? []).map((r) => [r.findingId, r.reason]));
  const unconfirmed = new Map((fix?.unconfirmed ?? []).map((u) => [u.findingId, u.reason]));
  const handed = new Map((fix?.handedBack ?? []).map((h) => [h.findingId, h]));
  const of = (f: Finding, fate: Fate, extra: Partial<EarlierFinding> = {}): EarlierFinding => ({
    id: f.id,
    priority: f.priority,
    category: f.category,
    file: f.file,
    line: f.line,
    title: f.title,
    description: f.description,
    suggestion: f.suggestion,
    ...(hasSeveralPlaces(f) ? { locations: f.locations!.map((p) => ({ file: p.file, line: p.line })) } : {}),
    fate,
    ...extra,
    ownReports: ownReports(f),
  });
  const code = review.findings.filter((f) => f.source.type === 'agent');
  return [
    ...code.map((f) => {
      if (fixed.has(f.id)) return of(f, 'fixed', { fixedIn: pushed!, fixedBy: fix!.fixModels ?? [] });
      const back = handed.get(f.id);
      if (f.decision && !f.decision.answer) {
        return of(f, 'decision', { question: f.decision.question, options: f.decision.options });
      }
      if (back) return of(f, 'handed-back', { question: back.question, options: back.options });
      const reason = rejected.get(f.id);
      if (reason !== undefined) return of(f, 'rejected', { reason });
      const notReproduced = unconfirmed.get(f.id);
      return notReproduced !== undefined ? of(f, 'not-reproduced', { reason: notReproduced }) : of(f, 'open');
    }),
    ...review.stuck.map((f) => of(f, 'stuck')),
  ];
}

/** Each reporter's own reports: its members' in a group, else the finding itself, which its one reporter wrote. */
function ownReports(f: Finding): Record<string, OwnReport[]> {
  const reports: Record<string, OwnReport[]> = {};
  const add = (reviewer: string, r: OwnReport) => {
    const own = (reports[reviewer] ??= []);
    if (!own.some((o) => o.title === r.title && o.file === r.file)) own.push(r);
  };
  const report = ({ file, line, title }: OwnReport): OwnReport => ({ file, line, title });
  if (f.members?.length) for (const m of f.members) add(m.reviewer, report(m));
  else for (const reviewer of f.reportedBy) add(reviewer, report(f));
  return reports;
}

/** The findings as every reviewer reads them (earlier-findings.json and the shared prompt): no one's own words. */
export function sharedEarlier(earlier: readonly EarlierFinding[]): Omit<EarlierFinding, 'ownReports' | 'fixedBy'>[] {
  return earlier.map(({ ownReports: _own, fixedBy: _by, ...shared }) => shared);
}

/**
 * One reviewer's earlier findings in its own words, each under the id the shared list gives the
 * finding (a merged group's id may be another member's), with that finding's fate.
 */
export function ownEarlierReports(
  earlier: readonly EarlierFinding[],
  reviewer: string,
): (OwnReport & { id: string; fate: Fate })[] {
  return earlier.flatMap((f) => (f.ownReports?.[reviewer] ?? []).map((r) => ({ id: f.id, fate: f.fate, ...r })));
}
