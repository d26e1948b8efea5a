// The message of a round's single fix commit: lists the fixed findings and
// ends with the Review-Loop-Round trailer that keeps the loop from re-triggering itself.
import type { Finding } from '../domain/findings.js';

export const ROUND_TRAILER = 'Review-Loop-Round';

export function fixCommitMessage(
  round: number,
  fixed: { findingId: string; description: string }[],
  findings: Finding[],
): string {
  const titles = new Map(findings.map((f) => [f.id, f.title]));
  const lines = fixed.map((f) => `- ${f.findingId}: ${oneLine(titles.get(f.findingId) ?? f.description)}`);
  const subject = `fix: address ${fixed.length} review finding${fixed.length === 1 ? '' : 's'} (round ${round})`;
  return `${subject}\n\n${lines.join('\n') || '- (no finding reported fixed)'}\n\n${ROUND_TRAILER}: ${round}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 120);
}
