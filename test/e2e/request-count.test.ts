// What a review-only run of a small PR asks GitHub, request by request (npm run bench's target is
// at most 6): the PR as it is now, the token's login, the PR's comments, the repository config,
// the threads and reviews (read once: before the set-up, for replies to answer, and taken by round
// 1 when none was answered), and the report. A reply run that only answers reads the threads once
// too: the replies it counts are the ones it answers.
import { expect, test } from 'vitest';
import { createWorld, OWNER, type World } from './harness.js';
import { INTENDED_REPLY, REPLY_ANSWERS, REPLY_REVIEW, reviewerAnswer } from './scenarios.js';

const BOT = 'github-actions[bot]';

test('a review-only run reads the threads once and makes six requests', async () => {
  const world = await createWorld();
  try {
    const r = await world.run({
      inputs: { mode: 'review' },
      rules: [{ role: 'reviewer', answer: reviewerAnswer([]) }],
    });
    expect(r.outputs.status).toBe('converged');
    expect(asked(world)).toEqual([
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

test('a reply run that only answers reads the threads once', async () => {
  const world = await createWorld();
  try {
    const inputs = { mode: 'review', 'fail-on': 'none' };
    const first = await world.run({ rules: [REPLY_REVIEW], inputs });
    expect(first.outputs.status, first.stdout).toBe('review-only');
    const thread = world.github.state.threads(7).find((t) => t.comments[0]!.author === BOT && t.line === 1)!;
    const posted = world.github.state.addReply(thread, { login: OWNER, type: 'User' }, INTENDED_REPLY);
    const reply = { id: posted.databaseId, inReplyTo: thread.comments[0]!.databaseId!, body: INTENDED_REPLY };
    world.github.clearRequests();
    const r = await world.run({
      eventName: 'pull_request_review_comment',
      reply: { ...reply, login: OWNER, type: 'User' },
      rules: [REPLY_REVIEW, ...REPLY_ANSWERS],
      inputs,
    });
    expect(r.outputs.status, r.stdout).toBe('skipped');
    expect(r.stdout).toContain('Answer-only: Head');
    // Some are asked side by side: their order is not the point, their number is.
    expect(asked(world).sort()).toEqual(
      [
        'GET /repos/octo-org/demo-repo/pulls/7',
        'POST /graphql viewer',
        'GET /repos/octo-org/demo-repo/contents/.github%2Fpr-review-loop.yml',
        'GET /repos/octo-org/demo-repo/issues/7/comments',
        // Once: the replies it counts before the set-up are the ones it answers.
        'POST /graphql ReviewThreads',
        // The earlier run's report: its run is one of this workflow's (memory), and this run's own.
        'GET /repos/octo-org/demo-repo/actions/runs/1001',
        'GET /repos/octo-org/demo-repo/actions/runs/1002',
        // Only a reply by the PR's author or by someone with write access is answered.
        'GET /repos/octo-org/demo-repo/collaborators/octo-org/permission',
        'POST /repos/octo-org/demo-repo/pulls/7/comments/1007/replies',
      ].sort(),
    );
  } finally {
    await world.close();
  }
});

/** Each request as `METHOD path`, a GraphQL request with its query's name. */
function asked(world: World): string[] {
  return world.github.requests.map((q) => {
    const query = (q.body as { query?: string } | null)?.query ?? '';
    const name = q.path === '/graphql' ? ` ${/query (\w+)|\{\s*(\w+)/.exec(query)?.slice(1).find(Boolean)}` : '';
    return `${q.method} ${q.path}${name}`;
  });
}
