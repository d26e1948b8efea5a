// The PR as every role's context folder holds it. People's text (title, body, file
// names) is cleaned of hidden content; the diff is code under review and stays byte-exact, so
// an agent can see exactly what the PR changes, invisible characters included. No review
// threads: anyone can write one, so only the reviewers and the analyzer get them (review/round).
import type { PrContext } from '../domain/pull-request.js';
import { cleanDeep } from '../security/untrusted.js';

export function prContextData(ctx: PrContext) {
  return {
    ...cleanDeep({
      pr: { ...ctx.meta, diffTruncated: ctx.diffTruncated },
      files: ctx.files,
      reviewState: { ...ctx.reviewState, threadsTruncated: ctx.threadsTruncated },
    }),
    diff: ctx.diff,
  };
}
