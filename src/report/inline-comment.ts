// One finding as an inline review comment: priority, title, description, how many
// reviewers agreed, its other places when it has several, a committable suggestion when the
// reviewer gave the exact new lines, and the hidden marks by which a later round or run finds the
// thread again (review/own-threads.ts).
// Agent text goes through the same neutraliser as every report.
import type { Finding } from '../domain/findings.js';
import { block, code, fenced, inline } from './format.js';
import { MARKER } from '../domain/marker.js';
import { findingMark } from '../review/finding-mark.js';
import { NOTE, PRIORITY_LABEL } from './wording.js';
import { decisionAsk } from './markdown-decisions.js';

export function renderInlineComment(f: Finding, reviewers: number, opts: { clashesWith?: string } = {}): string {
  const total = Math.max(reviewers, f.reportedBy.length, 1);
  const meta =
    `${PRIORITY_LABEL[f.priority]} · ${f.reportedBy.length}/${total} reviewer${total === 1 ? '' : 's'} · ` +
    `category ${inline(f.category, 40)} · ${code(f.id)}`;
  // Our marks come first: agent text after them (a fenced replacement keeps its bytes) cannot pass
  // for them, as only a mark at the very start is read back.
  const parts = [`${MARKER}\n${findingMark(f)}\n**${inline(f.title, 200)}**`, meta];
  if (f.description.trim()) parts.push(block(f.description));
  const elsewhere = (f.locations ?? []).filter((p) => p.file !== f.file || p.line !== f.line);
  if (elsewhere.length > 0) {
    const where = elsewhere.map((p) => code(p.line ? `${p.file ?? ''}:${p.line}` : (p.file ?? '')));
    parts.push(`The same problem is also at ${where.join(', ')}.`);
  }
  if (f.decision && !f.decision.answer) {
    parts.push(decisionAsk(f.id, f.decision, f.decision.by === 'fixer' ? 'the fixer handed it back' : 'its reviewers'));
  }
  if (f.replacement !== undefined && f.replacement !== null) {
    // The replacement is code for the lines of this comment: GitHub applies the block's lines as they are.
    parts.push(`Suggested change:\n\n${fenced(f.replacement, 'suggestion')}`);
  } else if (f.suggestion?.trim()) {
    parts.push(`**Suggestion:**\n\n${block(f.suggestion)}`);
  }
  if (opts.clashesWith) parts.push(NOTE.suggestionClash(code(opts.clashesWith)));
  return parts.join('\n\n');
}
