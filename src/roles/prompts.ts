// Prompt templates live in prompts/ at the repository root (never inside TypeScript). The
// caller says where: run.ts (in src/, bundled into dist/, both one level below the root).
import { readFile } from 'node:fs/promises';

/**
 * One template per role (`answer` is the answerer's), and parts of the reviewer's: `later-round` (from round 2 on),
 * `later-round-own` (a reviewer's own words for the earlier findings it reported), `later-round-own-fixes`
 * (the fixes its model wrote, to check as someone else's work), `fixer-decisions` (handing a choice back
 * to the maintainers, and making the change of the option they chose),
 * `reviewer-answer` (the envelope it answers with), `reviewer-resumed` (the prompt of a
 * resumed session, which has read the PR already) and `large-diff` (only when the diff is sampled);
 * `setup-review` (what the action ran on the head, for reviewers) and `fixer-setup` / `fixer-no-setup`
 * (what is installed, for the fixer); `fixer-verify` / `fixer-no-verify` (what runs after the fixer).
 */
export const PROMPT_NAMES = [
  'reviewer',
  'analyzer',
  'fixer',
  'gate',
  'confirm',
  'later-round',
  'later-round-decisions',
  'later-round-own',
  'later-round-own-fixes',
  'reviewer-answer',
  'reviewer-resumed',
  'large-diff',
  'fixer-confirmed-tests',
  'fixer-decisions',
  'directory-rules',
  'dismissed-findings',
  'decided-findings',
  'answer',
  'setup-review',
  'fixer-setup',
  'fixer-no-setup',
  'fixer-verify',
  'fixer-no-verify',
] as const;
export type PromptName = (typeof PROMPT_NAMES)[number];
export type Prompts = Record<PromptName, string>;

export class PromptError extends Error {}

export async function loadPrompts(baseUrl: URL): Promise<Prompts> {
  const entries = await Promise.all(
    PROMPT_NAMES.map(async (name) => {
      const url = new URL(`${name}.md`, baseUrl);
      try {
        const text = await readFile(url, 'utf8');
        if (!text.trim()) throw new Error('file is empty');
        return [name, text] as const;
      } catch (e) {
        throw new PromptError(`Prompt template "${name}" is not readable at ${url.pathname}: ${(e as Error).message}`);
      }
    }),
  );
  return Object.fromEntries(entries) as Prompts;
}

/** Replaces {{name}} placeholders; an unknown placeholder is a bug in a template, so it throws. */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{\s*([a-zA-Z0-9_]+)\s*\}\}/g, (_, key: string) => {
    const v = values[key];
    if (v === undefined) throw new PromptError(`Prompt placeholder {{${key}}} has no value`);
    return String(v);
  });
}
