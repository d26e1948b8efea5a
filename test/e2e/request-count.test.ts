// What a review-only run of a small PR asks GitHub, request by request (npm run bench's target is
// at most 6): the PR as it is now, the token's login, the PR's comments, the repository config,
// the threads and reviews (read once: before the set-up, for replies to answer, and taken by round
// 1 when none was answered), and the report.
import { expect, test } from 'vitest';
import { createWorld } from './harness.js';
import { reviewerAnswer } from './scenarios.js';

test('a review-only run reads the threads once and makes six requests', async () => {
  const world = await createWorld();
  try {
    const r = await world.run({
      inputs: { mode: 'review' },
      rules: [{ role: 'reviewer', answer: reviewerAnswer([]) }],
    });
    expect(r.outputs.status).toBe('converged');
    const asked = world.github.requests.map((q) => {
      const query = (q.body as { query?: string } | null)?.query ?? '';
      return `${q.method} ${q.path}${q.path === '/graphql' ? ` ${/query (\w+)|\{\s*(\w+)/.exec(query)?.slice(1).find(Boolean)}` : ''}`;
    });
    expect(asked).toEqual([
      'GET /repos/octo-org/demo-repo/pulls/7',
      'POST /graphql viewer',
      'GET /repos/octo-org/demo-repo/issues/7/comments',
      'GET /repos/octo-org/demo-repo/contents/.github%2Fpr-review-loop.yml',
      'POST /graphql ReviewThreads',
      'POST /repos/octo-org/demo-repo/issues/7/comments',
    ]);
  } finally {
    await world.close();
  }
});
