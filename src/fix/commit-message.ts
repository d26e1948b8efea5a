// The message of a round's single fix commit: lists the fixed findings and
// ends with the Review-Loop-Round trailer that keeps the loop from re-triggering itself.
import type { Finding } from '../domain/findings.js';

export const ROUND_TRAILER = 'Review-Loop-Round';

/**
 * `redact` is applied to each finding's line, never to the subject or the trailer: a later run
 * reads the trailer, and redaction learns its values from text anyone may write (run-secrets.ts).
 */
export function fixCommitMessage(
  round: number,
  fixed: { findingId: string; description: string }[],
  findings: Finding[],
  redact: (text: string) => string = (t) => t,
): string {
  const titles = new Map(findings.map((f) => [f.id, f.title]));
  // Redacted before the line is cut: a secret cut in two would match nothing.
  const line = (f: { findingId: string; description: string }) =>
    `- ${redact(f.findingId)}: ${oneLine(redact(titles.get(f.findingId) ?? f.description))}`;
  const lines = fixed.map(line);
  const subject = `fix: address ${fixed.length} review finding${fixed.length === 1 ? '' : 's'} (round ${round})`;
  return `${subject}\n\n${lines.join('\n') || '- (no finding reported fixed)'}\n\n${ROUND_TRAILER}: ${round}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 120);
}
