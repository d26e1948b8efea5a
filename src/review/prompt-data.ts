// Values every prompt template shares. Untrusted PR text is cleaned and fenced here.
import { fenceAsData } from '../security/untrusted.js';
import type { PrContext } from '../github/types.js';

export function sharedPromptValues(ctx: PrContext, round: number, contextDir: string, instructions?: string): Record<string, string | number> {
  const files = ctx.files.map((f) => `${f.status} ${f.filename} (+${f.additions}/-${f.deletions})`).join('\n');
  const prData = [
    fenceAsData('PR title', ctx.meta.title),
    fenceAsData('PR description', ctx.meta.body || '(empty)'),
    fenceAsData(`Changed files (${ctx.files.length})`, files || '(none)'),
  ].join('\n\n');
  return {
    prNumber: ctx.meta.number,
    round,
    contextDir,
    prData,
    diffNote: ctx.diffTruncated ? ' (TRUNCATED to the diff budget: read the files in the checkout for the rest)' : '',
    instructions: instructions?.trim() ? `## Extra review instructions from the repository\n${instructions.trim()}` : '',
  };
}
