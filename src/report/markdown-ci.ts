// The review report's CI section: what the `wait-for-checks` checks of the round's head
// said. Failing checks are findings (`CI-…`, listed with the others); this section adds what is
// not a finding: passed, flaky (reported, not fixed), escalated (with the attempts and the last
// log tail) and not finished in time. Check and workflow names come from the repository; log text
// from the PR's own code: both are neutralised like agent text.
import type { ReviewRoundRecord } from '../domain/findings.js';
import { code, fenced, inline } from './format.js';

export function ciSection(rec: ReviewRoundRecord): string | null {
  const ci = rec.ci;
  if (!ci) return null;
  const name = (c: { name: string; workflow: string | null }) =>
    `${code(c.name)}${c.workflow ? ` (${inline(c.workflow, 200)})` : ''}`;
  const lines: string[] = [];
  for (const c of ci.passed) lines.push(`- ✅ ${name(c)} passed`);
  for (const f of ci.findings) lines.push(`- ❌ ${inline(f.title, 200)}: finding ${code(f.id)}, sent to the fixer`);
  for (const c of ci.flaky) {
    lines.push(`- ⚠️ ${name(c)} is flaky: its runs on this commit both passed and failed; reported, not fixed`);
  }
  for (const w of ci.waiting) lines.push(`- ⏳ ${code(w)} did not finish in time (checks-timeout-minutes)`);
  const escalated = ci.escalated.map(
    (e) =>
      `- 🛑 ${name(e)} still fails after ${e.attempts} fix attempt${e.attempts === 1 ? '' : 's'} ` +
      `(ci-fix-attempts): escalated to a human. The end of its log:\n\n${fenced(e.logTail || '(no log)', 'text')}`,
  );
  const none = lines.length + escalated.length === 0 ? ['- no listed check ran on this head'] : [];
  return [`### CI checks on ${code(ci.sha.slice(0, 7))}`, [...lines, ...none].join('\n'), ...escalated].join('\n\n');
}
