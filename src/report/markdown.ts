// One render function per report. Pure: records in, markdown out. The
// result still goes through composeComment() (sanitize + hidden state) before posting.
export type { ReportContext } from './format.js';
export { renderReviewReport } from './markdown-review.js';
export { renderFixReport } from './markdown-fix.js';
export { renderCancelledReport, renderFailureReport, renderFinalSummary } from './markdown-final.js';
