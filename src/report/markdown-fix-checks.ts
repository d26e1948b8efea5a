// Who checked each fix: in the review report of the round that looked at them, in the fix report
// (the fixes of that round, not checked yet unless a gate passed them) and in the final summary.
import type { FixCheck } from '../domain/findings.js';
import type { FixRoundRecord } from '../domain/fix.js';
import { code, commitLink, inline, type ReportContext } from './format.js';

const STATE_TEXT: Record<FixCheck['state'], (by: string) => string> = {
  checked: (by) => `✅ checked by ${by}: nothing left of it`,
  'own-model': () =>
    "⚠️ checked only by the fixer's model: no other model is on the panel " +
    '(add a reviewer or a gate on another model)',
  unchecked: (by) =>
    `⏳ unchecked: ${by || 'no review came after the fix'}; the next review checks it again, and the converged ` +
    'label waits for it',
  'came-back': () => '🔁 came back: a reviewer reported it again (listed as stuck)',
};

const line = (c: FixCheck, ctx: ReportContext): string => {
  const fixedIn = c.fixedIn ? ` · fixed in ${commitLink(ctx, c.fixedIn)}` : '';
  const by = c.by.map((b) => inline(b, 200)).join(', ');
  return `- **${code(c.finding.id)}** ${inline(c.finding.title, 200)}${fixedIn} · ${STATE_TEXT[c.state](by)}`;
};

/** The review report's section on the fixes before it; null when it checked none. */
export function fixChecksSection(checks: readonly FixCheck[] | undefined, ctx: ReportContext): string | null {
  if (!checks?.length) return null;
  const intro = 'A fix counts as checked when a reviewer on a model that did not write it found nothing left of it.';
  return `### Who checked the fixes\n\n${intro}\n\n${checks.map((c) => line(c, ctx)).join('\n')}`;
}

/** The fix report's word on who checks its fixes, under its list of fixed findings; null when none was pushed. */
export function fixCheckNote(rec: FixRoundRecord): string | null {
  if (rec.outcome !== 'pushed' || rec.fixed.length === 0) return null;
  const models = (rec.fixModels ?? []).map((m) => code(m)).join(', ') || 'the fixer';
  if (rec.gateApproved)
    return `Written by ${models}; ✅ checked by the gate (${code(rec.gateApproved)}) before the push.`;
  return (
    `Written by ${models}; ⏳ fixed, unchecked until a reviewer on a model that did not write them finds nothing ` +
    "left of them (the next round, or the next run's first after the last round); their threads are resolved then."
  );
}

/** The final summary's line on fixes the run leaves unchecked; null when none. */
export function uncheckedNote(unchecked: readonly FixCheck[] | undefined): string | null {
  if (!unchecked?.length) return null;
  const ids = unchecked.map((c) => code(c.finding.id)).join(', ');
  return (
    `⏳ ${unchecked.length} fix(es) not checked by another model: ${ids} (output \`unchecked\`); ` +
    'the converged label and ready-for-review wait for a review that checks them.'
  );
}
