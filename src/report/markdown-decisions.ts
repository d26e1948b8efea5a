// Decisions for the maintainers: each asked in the report and in the finding's thread with its
// numbered options and how to answer; answered ones say who chose what (the person's own words
// are shown here only: no agent gets them); P0 marks refused and settled re-reports are listed.
import type { Decision, Finding, ReviewRoundRecord } from '../domain/findings.js';
import { block, code, inline } from './format.js';

const who = (d: Decision, f: Finding): string =>
  d.by === 'fixer' ? 'the fixer handed it back' : `${f.reportedBy.length} reviewer(s) marked it`;

/** The question, its numbered options and how to answer: the report's entry and the thread's reply. */
export function decisionAsk(id: string, d: Omit<Decision, 'by'>, asked: string): string {
  const options = d.options.map((o, i) => `${i + 1}. ${inline(o, 400)}`).join('\n');
  return [
    `**A decision for the maintainers** (${asked}): ${inline(d.question, 600)}`,
    options,
    `Answer with ${code(`/review-loop decide ${id} <n>`)} in a comment on this PR, as a person with write access ` +
      "who is neither the PR's author nor anyone who pushed to its branch; or dismiss the finding with " +
      `${code('/review-loop dismiss')} in its thread. Until then the loop does not fix it, and the run ends ` +
      '`manual`.',
  ].join('\n\n');
}

/** What the thread and the report say of an answered decision. */
function decisionAnswered(d: Decision): string {
  const a = d.answer!;
  const chosen = d.options[a.chosen - 1] ?? '';
  const words = a.comment ? ` Their words: ${block(a.comment)}` : '';
  return `**Decided** by ${inline(a.by, 60)}: option ${a.chosen}, ${inline(chosen, 400)}.${words}`;
}

/** The review report's section; null when the round has no decision, refusal or settled re-report. */
export function decisionsSection(rec: ReviewRoundRecord): string | null {
  const decisions = rec.findings.filter((f) => f.decision);
  const parts: string[] = [];
  for (const f of decisions) {
    const d = f.decision!;
    const head = `#### ${code(f.id)} ${inline(f.title, 200)} · ${f.priority}`;
    parts.push(`${head}\n\n${d.answer ? decisionAnswered(d) : decisionAsk(f.id, d, who(d, f))}`);
  }
  for (const r of rec.refusedDecisions ?? []) {
    parts.push(`- Not a decision: ${code(r.id)} ${inline(r.title, 200)} (${inline(r.why, 300)}); it stays a finding.`);
  }
  for (const r of rec.refusedAnswers ?? []) {
    parts.push(`- An answer refused: ${inline(r.by, 60)} on ${code(r.id)} (${inline(r.why, 300)}).`);
  }
  for (const f of rec.settledDecisions ?? []) {
    parts.push(
      `- Reported again after the maintainers' answer was made: ${code(f.id)} ${inline(f.title, 200)} (dropped).`,
    );
  }
  if (parts.length === 0) return null;
  const open = decisions.filter((f) => !f.decision!.answer).length;
  return `### ❓ Decisions for the maintainers (${open} open)\n\n${parts.join('\n\n')}`;
}

/** The first line of the job summary while decisions wait; null when none does. */
export function decisionsFirstLine(open: readonly Finding[] | undefined): string | null {
  if (!open?.length) return null;
  const ids = open.map((f) => code(f.id)).join(', ');
  return `**${open.length} decision(s) wait for the maintainers:** ${ids}; the PR's last report asks each question.`;
}
