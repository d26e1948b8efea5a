// The decisions the maintainers answered (decisions.ts) as the reviewers read them: what each was
// about, the question and the chosen option as the agents wrote them (never the person's own words),
// cleaned and fenced as data, filled into prompts/decided-findings.md.
import { fillTemplate, type Prompts } from '../roles/prompts.js';
import { cleanDeep, fenceAsData } from '../security/untrusted.js';
import type { KnownDecision } from '../domain/findings.js';

export function decidedFindingsPrompt(prompts: Prompts, decisions: readonly KnownDecision[]): string {
  const answered = decisions.filter((d) => d.answer);
  if (answered.length === 0) return '';
  const list = answered.map((d) => ({
    id: d.finding.id,
    title: d.finding.title,
    category: d.finding.category,
    file: d.finding.file,
    question: d.question,
    chosenOption: d.options[d.answer!.chosen - 1] ?? '',
  }));
  const findings = fenceAsData('answered decisions', JSON.stringify(cleanDeep(list), null, 2));
  return fillTemplate(prompts['decided-findings'], { findings }).trimEnd();
}
