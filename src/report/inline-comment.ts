// One finding as an inline review comment: priority, title, description, how many
// reviewers agreed, a committable suggestion when the reviewer gave the exact new lines, and
// the hidden marks by which a later round or run finds the thread again (review/own-threads.ts).
// Agent text goes through the same neutraliser as every report.
import type { Finding } from '../review/types.js';
import type { FixedFingerprint } from '../review/stuck.js';
import { block, code, fenced, inline } from './format.js';
import { MARKER } from './marker.js';
import { PRIORITY_LABEL } from './wording.js';

const FINDING_OPEN = '<!-- pr-review-loop-finding: ';
const FINDING_CLOSE = ' -->';

export function renderInlineComment(f: Finding, reviewers: number): string {
  const total = Math.max(reviewers, f.reportedBy.length, 1);
  const meta = `${PRIORITY_LABEL[f.priority]} · ${f.reportedBy.length}/${total} reviewer${total === 1 ? '' : 's'} · ` +
    `category ${inline(f.category, 40)} · ${code(f.id)}`;
  // Our marks come first: agent text after them (a fenced replacement keeps its bytes) cannot pass
  // for them, as only a mark at the very start is read back.
  const parts = [`${MARKER}\n${findingMark(f)}\n**${inline(f.title, 200)}**`, meta];
  if (f.description.trim()) parts.push(block(f.description));
  if (f.replacement !== undefined && f.replacement !== null) {
    // The replacement is code for the lines of this comment: GitHub applies the block's lines as they are.
    parts.push(`Suggested change:\n\n${fenced(f.replacement, 'suggestion')}`);
  } else if (f.suggestion?.trim()) {
    parts.push(`**Suggestion:**\n\n${block(f.suggestion)}`);
  }
  return parts.join('\n\n');
}

/** The id and what the finding is about, base64url so that no agent text can close the comment. */
function findingMark(f: Finding): string {
  const about: FixedFingerprint = { id: f.id, category: f.category, file: f.file, title: f.title.slice(0, 200) };
  return `${FINDING_OPEN}${Buffer.from(JSON.stringify(about)).toString('base64url')}${FINDING_CLOSE}`;
}

/** The finding an inline comment of ours is about: the mark at its start, or null. */
export function readFindingMark(body: string): FixedFingerprint | null {
  const start = `${MARKER}\n`.length;
  if (!body.startsWith(`${MARKER}\n${FINDING_OPEN}`)) return null;
  const end = body.indexOf(FINDING_CLOSE, start + FINDING_OPEN.length);
  if (end < 0) return null;
  try {
    const encoded = body.slice(start + FINDING_OPEN.length, end);
    const o = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Record<string, unknown>;
    const str = (x: unknown) => typeof x === 'string';
    if (!o || !str(o.id) || !str(o.category) || !str(o.title) || !(o.file === null || str(o.file))) return null;
    const [id, category, title] = [o.id, o.category, o.title] as string[];
    return { id: id!, category: category!, file: o.file as string | null, title: title! };
  } catch {
    return null;
  }
}
