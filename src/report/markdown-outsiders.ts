// The review report's list of unresolved review threads by people without write access:
// shown to the maintainers, never fixed, never blocking, not counted for fail-on.
import type { ReviewRoundRecord } from '../domain/findings.js';
import { code, inline, locationLink, type ReportContext } from './format.js';

const HEADING = '### 🗨️ Comments from outside contributors';
const INTRO =
  'Unresolved review threads started by people without write access to the repository. ' +
  'They are listed for the maintainers: they do not block the loop, are never given to the fixer, ' +
  'and do not count for `fail-on`. Answer or resolve them as you see fit.';

export function outsidersSection(rec: ReviewRoundRecord, ctx: ReportContext): string | null {
  const threads = rec.outsiderThreads ?? [];
  if (threads.length === 0) return null;
  const list = threads.map(
    (f) =>
      `- ${f.priority} ${code(f.id)} · ${inline(f.title, 200)} · by ${inline(f.source.name, 60)} · ` +
      locationLink(ctx, rec.headSha, f.file, f.line),
  );
  return `${HEADING}\n\n${INTRO}\n\n${list.join('\n')}`;
}
