// The findings people dismissed (dismissals.ts) as the reviewers read them: what each was about
// and the person's reason, cleaned and fenced as data, filled into prompts/dismissed-findings.md.
import { fillTemplate, type Prompts } from '../roles/prompts.js';
import { cleanDeep, fenceAsData } from '../security/untrusted.js';
import type { Dismissal } from '../domain/findings.js';

/** Listed in the prompt; more are rare, and the action drops their repeats anyway. */
const LISTED = 50;

export function dismissedFindingsPrompt(prompts: Prompts, dismissals: readonly Dismissal[]): string {
  if (dismissals.length === 0) return '';
  const list = dismissals.slice(0, LISTED).map((d) => ({
    title: d.finding.title,
    category: d.finding.category,
    file: d.finding.file,
    line: d.line,
    reason: d.reason || '(none given)',
  }));
  const findings = fenceAsData('dismissed findings', JSON.stringify(cleanDeep(list), null, 2));
  return fillTemplate(prompts['dismissed-findings'], { findings }).trimEnd();
}
