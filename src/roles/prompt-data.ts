// Values every prompt template shares. Untrusted PR text is cleaned and fenced here.
// The prompt stays the same size however large the PR: it carries a summary of the changed
// files and points at files.json in the context folder for the full list.
import { fenceAsData } from '../security/untrusted.js';
import type { PrContext, PrFile } from '../domain/pull-request.js';

/** Paths listed in the prompt; files.json has them all. */
const LISTED_FILES = 50;
/** A path longer than this is cut in the prompt (git allows paths of thousands of characters). */
const MAX_PATH_CHARS = 160;

/** What the repository and its people add to the prompts, each already filled in where it has a template. */
export interface PromptGuidance {
  instructions?: string | undefined;
  /** The rules files of the changed folders (review/dir-rules-prompt.ts). */
  directoryRules?: string | undefined;
  /** The findings people dismissed (review/dismissed-prompt.ts). */
  dismissedFindings?: string | undefined;
  /** What the action ran on the head before the review, filled into prompts/setup-review.md (setup-data.ts). */
  projectSetup?: string | undefined;
}

export function sharedPromptValues(
  ctx: PrContext,
  round: number,
  contextDir: string,
  guidance: PromptGuidance = {},
): Record<string, string | number> {
  const { instructions, directoryRules = '', dismissedFindings = '', projectSetup = '' } = guidance;
  const prData = [
    fenceAsData('PR title', ctx.meta.title),
    fenceAsData('PR description', ctx.meta.body || '(empty)'),
    fenceAsData(filesLabel(ctx.files), ctx.files.slice(0, LISTED_FILES).map(fileLine).join('\n') || '(none)'),
  ].join('\n\n');
  return {
    prNumber: ctx.meta.number,
    round,
    contextDir,
    prData,
    diffNote: ctx.diffTruncated ? ` (large-diff sampled: ${diffShares(ctx.files)}; files.json says which)` : '',
    instructions: instructions?.trim()
      ? `## Extra review instructions from the repository\n${instructions.trim()}`
      : '',
    directoryRules,
    dismissedFindings,
    projectSetup,
  };
}

/** "Changed files: 3001 (+3001/-1; 3000 added, 1 modified); the first 50, all in files.json". */
function filesLabel(files: PrFile[]): string {
  const added = files.reduce((n, f) => n + f.additions, 0);
  const deleted = files.reduce((n, f) => n + f.deletions, 0);
  const byStatus = new Map<string, number>();
  for (const f of files) byStatus.set(f.status, (byStatus.get(f.status) ?? 0) + 1);
  const statuses = [...byStatus].map(([status, n]) => `${n} ${status}`).join(', ');
  const label = `Changed files: ${files.length} (+${added}/-${deleted}${statuses ? `; ${statuses}` : ''})`;
  return files.length > LISTED_FILES ? `${label}; the first ${LISTED_FILES}, all of them in files.json` : label;
}

function fileLine(f: PrFile): string {
  const cut = (p: string) => (p.length > MAX_PATH_CHARS ? `${p.slice(0, MAX_PATH_CHARS)}…` : p);
  const name = f.previousFilename ? `${cut(f.previousFilename)} → ${cut(f.filename)}` : cut(f.filename);
  return `${f.status} ${name} (${f.binary ? 'binary' : `+${f.additions}/-${f.deletions}`})`;
}

function diffShares(files: PrFile[]): string {
  const count = (share: PrFile['inDiff']) => files.filter((f) => f.inDiff === share).length;
  return `${count('full')} of ${files.length} files in full, ${count('partial')} in part, ${count('omitted')} omitted`;
}
