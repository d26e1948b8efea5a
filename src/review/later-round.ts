// What a reviewer is told from round 2 on (and in the first round of a run after an earlier one):
// the files of the last review's findings and of the change since, and the parts of its prompt
// about them. Two parts: one every reviewer of the round shares (prompts/later-round.md, in the
// middle of the prompt), and one for each reviewer with its own words for the findings it
// reported (prompts/later-round-own.md, at the end): the prompts stay the same bytes up to the
// reviewer's own part, so a provider's prompt cache serves them all. Pure.
import type { PrContext } from '../domain/pull-request.js';
import { fillTemplate, type Prompts } from '../roles/prompts.js';
import { cleanDeep, fenceAsData, fenceCodeAsData } from '../security/untrusted.js';
import type { ModelRef } from '../config/same-model.js';
import { ownEarlierReports, sharedEarlier, type EarlierFinding } from './earlier.js';
import { wroteFix } from './fix-checks.js';

/**
 * The inlining rule: the later-round files are copied into the prompt whole, in their order, while
 * the copies together stay within this many characters; a file that would go over is left in the
 * context folder only. A model that opens a file with a tool call re-sends its whole conversation
 * on that call, which costs more than a short file in the prompt; a long one costs more there.
 */
export const INLINE_LATER_CHARS = 12_000;

interface LaterFile {
  name: string;
  /** The file's text, as written to the context folder. */
  text: string;
  /** Code under review: fenced byte-exact (a diff), not cleaned as people's text. */
  code: boolean;
}

/**
 * JSON with each element of a list on a line of its own, compact inside: as easy to read as an
 * indented file, without paying for the indentation in every later round's prompt.
 */
const json = (v: unknown): string => `${listLines(v)}\n`;

function listLines(v: unknown): string {
  if (!Array.isArray(v) || v.length === 0) return JSON.stringify(v);
  return `[\n${v.map((e) => JSON.stringify(e)).join(',\n')}\n]`;
}

/** The later-round files, in the order the inlining rule takes them: what to check first, first. */
export function laterRoundFiles(ctx: PrContext, earlier: readonly EarlierFinding[]): LaterFile[] {
  return [
    { name: 'earlier-findings.json', text: json(cleanDeep(sharedEarlier(earlier))), code: false },
    // Code under review, byte-exact like diff.patch.
    { name: 'delta.patch', text: ctx.delta?.patch ?? '', code: true },
    { name: 'delta-commits.json', text: json(cleanDeep(ctx.delta?.commits ?? [])), code: false },
  ];
}

/** Which files the rule copies into the prompt, and which it leaves in the folder. */
function inlining(files: readonly LaterFile[]): { copied: LaterFile[]; left: LaterFile[] } {
  const copied: LaterFile[] = [];
  const left: LaterFile[] = [];
  let total = 0;
  for (const f of files) {
    if (total + f.text.length <= INLINE_LATER_CHARS) {
      copied.push(f);
      total += f.text.length;
    } else left.push(f);
  }
  return { copied, left };
}

/** "`delta.patch` (35,012 characters)", comma-joined; "(none)" for no file. */
function fileList(files: readonly LaterFile[]): string {
  if (files.length === 0) return '(none)';
  return files.map((f) => `\`${f.name}\` (${f.text.length.toLocaleString('en-US')} characters)`).join(', ');
}

/** The shared later-round part of the reviewer prompt: '' without earlier findings (a first review). */
export function laterRoundPrompt(
  prompts: Prompts,
  ctx: PrContext,
  earlier: readonly EarlierFinding[] | undefined,
): string {
  if (!earlier) return '';
  const d = ctx.delta;
  const deltaNote = !d
    ? " (empty: that head is not in this head's history, so review the whole PR)"
    : d.truncated
      ? ' (cut short: it is too large; read the changed files in the checkout)'
      : '';
  const { copied, left } = inlining(laterRoundFiles(ctx, earlier));
  const inlined = copied
    .map((f) => (f.code ? fenceCodeAsData(f.name, f.text || '(empty)') : fenceAsData(f.name, f.text)))
    .join('\n\n');
  return fillTemplate(prompts['later-round'], {
    sinceSha: (d?.fromSha ?? '').slice(0, 7) || 'earlier',
    deltaNote,
    inlineLimit: INLINE_LATER_CHARS.toLocaleString('en-US'),
    copiedFiles: fileList(copied),
    leftFiles: fileList(left),
    inlined,
    // Only where an earlier finding has such a fate: the words cost every later round.
    decisionFates: earlier.some((f) => f.fate === 'decision' || f.fate === 'handed-back')
      ? prompts['later-round-decisions'].trim()
      : '',
  });
}

/**
 * The part for the reviewer on a model that wrote earlier fixes: those fixes, to check as someone
 * else's work (fix-checks.ts says why its check alone never counts); '' when it wrote none.
 */
export function ownFixesPrompt(
  prompts: Prompts,
  earlier: readonly EarlierFinding[] | undefined,
  spec: ModelRef,
): string {
  const own = (earlier ?? []).filter((f) => f.fate === 'fixed' && wroteFix(f.fixedBy ?? [], spec));
  if (own.length === 0) return '';
  // Ids only: the action computed them, and earlier-findings.json holds each one's words, place and
  // commit, which a second copy here would make every later round pay for again.
  const ids = own.map((f) => `\`${f.id}\``).join(', ');
  return fillTemplate(prompts['later-round-own-fixes'], { ids });
}

/**
 * One reviewer's own part: its words for the earlier findings it reported, where they differ from
 * earlier-findings.json's (a report in the group's own title and place says nothing that file does
 * not, and every later round would pay for it again); '' when none is left.
 */
export function ownEarlierPrompt(
  prompts: Prompts,
  earlier: readonly EarlierFinding[] | undefined,
  reviewer: string,
): string {
  const shared = new Map((earlier ?? []).map((f) => [f.id, f]));
  const own = ownEarlierReports(earlier ?? [], reviewer).filter((r) => {
    const f = shared.get(r.id);
    return !f || r.title !== f.title || r.file !== f.file || r.line !== f.line;
  });
  if (own.length === 0) return '';
  const findings = fenceAsData('Your earlier findings', listLines(cleanDeep(own)));
  return fillTemplate(prompts['later-round-own'], { findings });
}
