// The run's verdict inside its last report: the status and the loop's message, and
// what was left unfixed. The message quotes agent text (a fixer's finding ids, a gate's feedback,
// an error), so it goes through inline() like any other untrusted field.
import type { LoopEnd } from '../domain/loop.js';
import { code, inline } from './format.js';
import { NOTE } from './wording.js';

export function withEnd(markdown: string, end: LoopEnd | null): string {
  if (!end) return markdown;
  const left = end.remaining?.length
    ? `\n\n${NOTE.remainingAtEnd(end.remaining.length)}\n${end.remaining.map(remainingLine).join('\n')}`
    : '';
  const status = `${NOTE.runStatus(code(end.status))} — ${inline(end.message, 2000)}${left}\n\n`;
  // Above the footer (the last "---" rule), so the verdict reads as part of the report.
  const cut = markdown.lastIndexOf('\n---\n');
  return cut === -1 ? `${markdown}\n\n${status}` : `${markdown.slice(0, cut + 1)}${status}${markdown.slice(cut + 1)}`;
}

function remainingLine(f: NonNullable<LoopEnd['remaining']>[number]): string {
  return `- ${code(f.id)} ${f.priority}${f.stuck ? ` ${NOTE.stuckMark}` : ''}: ${inline(f.title, 200)}`;
}
