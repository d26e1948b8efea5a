// The rules files of a round (dir-rules.ts) as the reviewers read them: each fenced as the
// repository's text, after the changed files it applies to fenced as data (PR file names are
// anyone's text), filled into prompts/directory-rules.md.
import { fillTemplate, type Prompts } from '../roles/prompts.js';
import { fenceAsData, fenceRepositoryText } from '../security/untrusted.js';
import type { DirectoryRules } from './dir-rules.js';

/** Files named per rules file; the rest are counted. */
const LISTED = 20;

export function directoryRulesPrompt(prompts: Prompts, rules: readonly DirectoryRules[]): string {
  if (rules.length === 0) return '';
  const blocks = rules.map((r) => {
    const more = r.appliesTo.length > LISTED ? `, and ${r.appliesTo.length - LISTED} more` : '';
    const files = `${r.appliesTo.slice(0, LISTED).join(', ')}${more}`;
    const appliesTo = fenceAsData(`The changed files ${r.path} applies to`, files);
    return `${appliesTo}\n${fenceRepositoryText(r.path, r.text)}`;
  });
  return fillTemplate(prompts['directory-rules'], { rules: blocks.join('\n\n') }).trimEnd();
}
