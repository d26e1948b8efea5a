// The review report's list of findings people dismissed, and of requests to dismiss that were
// refused. Dismissed findings are not fixed, posted again, counted for fail-on or blocking.
import type { DismissalRequest, ReviewRoundRecord } from '../domain/findings.js';
import { code, inline, locationLink, type ReportContext } from './format.js';

const HEADING = '### 🙅 Dismissed findings';
const INTRO =
  'People with write access said these findings are wrong. The loop does not fix them, post them again, ' +
  'or count them for `fail-on`, in this run or later ones, and its reviewers are told not to raise them again.';
const REFUSED_HEADING = '### Requests to dismiss that were refused';
const REFUSED_INTRO =
  'Only people with write access to the repository can dismiss a finding (by replying ' +
  '`/review-loop dismiss <reason>` in its thread, or by resolving the thread). These findings stay.';

export function dismissedSection(rec: ReviewRoundRecord, ctx: ReportContext): string | null {
  const parts: string[] = [];
  const dismissed = rec.dismissed ?? [];
  if (dismissed.length) {
    const list = dismissed.map(
      ({ finding: f, dismissal: d }) =>
        `- ${f.priority} ${code(f.id)} · ${inline(f.title, 200)} · ${locationLink(ctx, rec.headSha, f.file, f.line)}` +
        ` · ${how(d)}`,
    );
    parts.push(`${HEADING}\n\n${INTRO}\n\n${list.join('\n')}`);
  }
  const refused = rec.refusedDismissals ?? [];
  if (refused.length) {
    const list = refused.map(
      (r) => `- ${code(r.finding.id)} · ${inline(r.finding.title, 200)} · ${how(r)} · refused: ${inline(r.why, 200)}`,
    );
    parts.push(`${REFUSED_HEADING}\n\n${REFUSED_INTRO}\n\n${list.join('\n')}`);
  }
  return parts.length ? parts.join('\n\n') : null;
}

/** Who did what, and their reason. */
function how(d: DismissalRequest): string {
  const who = inline(d.by, 60);
  const act = d.via === 'command' ? `${who} replied ${code('/review-loop dismiss')}` : `${who} resolved its thread`;
  return d.reason ? `${act}: ${inline(d.reason, 300)}` : act;
}
