// A choice only the maintainers can make is asked, not looped: a finding becomes a decision when
// the fixer hands it back as one (with the options it sees), or when most of the reviewers who
// reported it mark it so. A P0 never becomes one on a single agent's word: the fixer's hand-back of
// a P0 only shows the next round's reviewers its options, and a mark counts for a P0 only when most
// of its reporters, and at least two, made it, so an injected fixer or reviewer cannot park a real
// bug as a question. An open decision is never sent to the fixer and never stuck; an answered one
// (review/decision-answers.ts) goes to the fixer as the chosen option, and once that is pushed a
// finding reported again about the same problem is dropped, as a dismissal is
// (docs/decisions/0020-decisions-are-asked.md). Pure.
import type { Decision, DecisionAsk, DecisionFinding, Finding, KnownDecision } from '../domain/findings.js';
import type { FixRoundRecord } from '../domain/fix.js';
import { sameProblem } from './similarity.js';

export type { KnownDecision };

const MIN_P0_MARKS = 2;

/** Each reviewer that marked the finding a decision, with its question and options. */
function marks(f: Finding): Map<string, DecisionAsk> {
  const m = new Map<string, DecisionAsk>();
  if (f.members?.length) {
    for (const x of f.members) if (x.asked && !m.has(x.reviewer)) m.set(x.reviewer, x.asked);
  } else if (f.asked) {
    for (const r of f.reportedBy) m.set(r, f.asked);
  }
  return m;
}

/** Whether `f` is the problem a decision is about: its id, or the same problem wherever it moved. */
function isAbout(d: KnownDecision, f: Finding, renames?: ReadonlyMap<string, string>): boolean {
  if ([f.id, ...(f.aliases ?? [])].includes(d.finding.id)) return true;
  const opts = { useLines: false, ...(renames ? { renames } : {}) };
  return d.finding.category === f.category && sameProblem({ ...d.finding, line: null }, f, opts);
}

export interface DecidedRound {
  /** The round's findings, each decision marked (`decision`), a done decision's re-reports left out. */
  findings: Finding[];
  /** Decisions this round's reviewers opened. */
  opened: KnownDecision[];
  /** Re-reports of a decision whose chosen option was pushed: dropped, listed in the report. */
  settled: { finding: Finding; decision: KnownDecision }[];
  /** P0 findings marked a decision by too few reviewers: they stay findings to fix. */
  refused: { id: string; title: string; why: string }[];
}

/**
 * Applies the known decisions and this round's marks to its agent findings (others pass through).
 * An answered decision no reviewer reported again is added back, for the fixer to make the chosen
 * option's change, until that change is pushed.
 */
export function applyDecisions(
  findings: readonly Finding[],
  known: readonly KnownDecision[],
  renames?: ReadonlyMap<string, string>,
): DecidedRound {
  const out: DecidedRound = { findings: [], opened: [], settled: [], refused: [] };
  const seen = new Set<KnownDecision>();
  for (const f of findings) {
    const d = f.source.type === 'agent' ? known.find((k) => isAbout(k, f, renames)) : undefined;
    if (d) {
      seen.add(d);
      if (d.doneIn) out.settled.push({ finding: f, decision: d });
      else out.findings.push({ ...f, decision: asDecision(d) });
      continue;
    }
    const marked = f.source.type === 'agent' ? marks(f) : new Map<string, DecisionAsk>();
    const reporters = new Set(f.reportedBy).size;
    const most = marked.size * 2 > reporters;
    if (marked.size > 0 && f.priority === 'P0' && (!most || marked.size < MIN_P0_MARKS)) {
      const why =
        `${marked.size} of ${reporters} reviewer(s) marked it a decision; a P0 becomes one only when most of ` +
        `its reviewers, at least ${MIN_P0_MARKS}, do`;
      out.refused.push({ id: f.id, title: f.title, why });
    }
    const ask = [...marked.values()][0];
    if (!most || !ask || (f.priority === 'P0' && marked.size < MIN_P0_MARKS)) {
      out.findings.push(f);
      continue;
    }
    const opened: KnownDecision = { ...ask, finding: decisionFinding(f), by: 'reviewers' };
    out.opened.push(opened);
    out.findings.push({ ...f, decision: asDecision(opened) });
  }
  // An answer waits for its change even when no reviewer reported the problem again.
  for (const d of known) {
    if (!seen.has(d) && d.answer && !d.doneIn) out.findings.push(asFinding(d));
  }
  return out;
}

/**
 * The fixer's hand-backs: a finding below P0 becomes a decision; a P0 stays a finding (its options
 * go to the next round's reviewers, who may mark it).
 */
export function handedBack(fix: FixRoundRecord, findings: readonly Finding[]): KnownDecision[] {
  return (fix.handedBack ?? []).flatMap((h) => {
    const f = findings.find((x) => x.id === h.findingId);
    if (!f || f.priority === 'P0' || f.decision) return [];
    return [{ question: h.question, options: h.options, finding: decisionFinding(f), by: 'fixer' as const }];
  });
}

/** The open decisions among a round's findings. */
export const openDecisions = (findings: readonly Finding[]): Finding[] =>
  findings.filter((f) => f.decision && !f.decision.answer);

function decisionFinding(f: Finding): DecisionFinding {
  const { id, priority, category, file, line, title, description, suggestion } = f;
  return { id, priority, category, file, line, title, description, suggestion };
}

function asDecision(d: KnownDecision): Decision {
  return { question: d.question, options: d.options, by: d.by, ...(d.answer ? { answer: d.answer } : {}) };
}

/** An answered decision as a finding of the round: what the fixer is handed. */
function asFinding(d: KnownDecision): Finding {
  return {
    ...d.finding,
    source: { type: 'agent', name: 'decision', reviewId: null },
    reportedBy: [],
    decision: asDecision(d),
  };
}
