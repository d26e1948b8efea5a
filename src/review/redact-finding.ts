// A finding's text is an agent's (or a hook's, or a CI log's) and may quote a secret it read in
// the code. It goes to many places: report comments and their hidden state, inline comments and
// replies, the job summary, the log, annotations, the fix commit message. The hidden state is
// written with characters escaped, where no later redaction would see a secret. So a finding is
// redacted once, when the round produces it, and every place gets the redacted text.
import type { Finding, ReviewRoundRecord } from '../domain/findings.js';

export function redactFinding(f: Finding, redact: (text: string) => string): Finding {
  const out: Finding = {
    ...f,
    title: redact(f.title),
    description: redact(f.description),
    suggestion: f.suggestion === null ? null : redact(f.suggestion),
  };
  if (typeof f.replacement === 'string') out.replacement = redact(f.replacement);
  if (f.locations) {
    // Each place's replacement is code a human commits with one click, like the single one.
    out.locations = f.locations.map((p) => (p.replacement === null ? p : { ...p, replacement: redact(p.replacement) }));
  }
  if (f.members) {
    out.members = f.members.map((m) => ({ ...m, title: redact(m.title), description: redact(m.description) }));
  }
  return out;
}

/**
 * A round's record with every finding redacted, and the reasons people gave for dismissals (a
 * person may paste a secret as readily as an agent).
 */
export function redactRecord(rec: ReviewRoundRecord, redact: (text: string) => string): ReviewRoundRecord {
  const findings = (fs: Finding[]) => fs.map((f) => redactFinding(f, redact));
  const reason = <T extends { reason: string }>(d: T): T => ({ ...d, reason: redact(d.reason) });
  return {
    ...rec,
    findings: findings(rec.findings),
    stuck: findings(rec.stuck),
    dismissed: (rec.dismissed ?? []).map((d) => ({
      finding: redactFinding(d.finding, redact),
      dismissal: reason(d.dismissal),
    })),
    dismissals: (rec.dismissals ?? []).map(reason),
    refusedDismissals: (rec.refusedDismissals ?? []).map(reason),
  };
}
