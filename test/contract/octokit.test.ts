// The real client the action uses (@actions/github's getOctokit with the retry and
// throttling plugins) against the fake: pagination, diffs, GraphQL cursors, failures.
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeReviewState } from '../../src/github/pull-request.js';
import { getReviewThreads, REVIEW_THREADS_QUERY } from '../../src/github/threads.js';
import { startFakeGitHub } from '../fakes/github/index.js';
import type { FakeGitHub, FakeThreadInput } from '../fakes/github/index.js';
import { createOrigin } from './git-origin.js';
import type { Files, Origin } from './git-origin.js';

const repo = { owner: 'octo-org', repo: 'demo-repo' };
// The action's own query, so this test pages exactly what the action asks for.
const THREADS_QUERY = REVIEW_THREADS_QUERY;

interface ThreadsPage {
  repository: {
    pullRequest: {
      reviewThreads: {
        totalCount: number;
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: {
          id: string;
          path: string;
          comments: { nodes: { databaseId: number; author: { login: string } | null }[] };
        }[];
      };
    };
  };
}

let origin: Origin;
let fake: FakeGitHub;

/** Options as the action sets them, made fast: no real waiting between retries. */
function client(throttle: Record<string, unknown> = { enabled: false }) {
  const noop = (): boolean => false;
  return getOctokit(
    't0k3n',
    {
      baseUrl: fake.url,
      retry: { retryAfterBaseValue: 5 },
      throttle: { onRateLimit: noop, onSecondaryRateLimit: noop, ...throttle },
    },
    retry,
    throttling,
  );
}

beforeAll(async () => {
  const many: Files = Object.fromEntries(
    Array.from({ length: 120 }, (_v, i) => [`gen/file-${String(i).padStart(3, '0')}.txt`, `line ${i}\n`]),
  );
  origin = await createOrigin(
    { 'src/math.js': 'const add = (a, b) => a + b;\n' },
    { 'src/math.js': 'const add = (a, b) => a - b;\n', ...many },
  );
  const threads: FakeThreadInput[] = Array.from({ length: 250 }, (_v, i) => ({
    path: 'src/math.js',
    line: 1,
    isResolved: i % 2 === 0,
    comments: [{ body: `thread ${i}`, author: i === 0 ? 'renovate[bot]' : 'alice', authorAssociation: 'MEMBER' }],
  }));
  fake = await startFakeGitHub({
    ...repo,
    originDir: origin.originDir,
    pulls: [
      {
        number: 7,
        title: 'Planted bug',
        user: 'alice',
        headRef: 'feature/planted-bug',
        reviewThreads: threads,
        comments: Array.from({ length: 35 }, (_v, i) => ({ login: 'bob', body: `comment ${i}` })),
      },
    ],
  });
});

afterAll(async () => {
  await fake?.close();
  await origin?.cleanup();
});

describe('real Octokit against the fake GitHub', () => {
  it('paginates PR files and comments through the Link header', async () => {
    const octokit = client();
    const files = await octokit.paginate(octokit.rest.pulls.listFiles, { ...repo, pull_number: 7, per_page: 100 });
    expect(files).toHaveLength(121);
    expect(files.find((f) => f.filename === 'src/math.js')).toMatchObject({
      status: 'modified',
      additions: 1,
      deletions: 1,
    });
    const comments = await octokit.paginate(octokit.rest.issues.listComments, {
      ...repo,
      issue_number: 7,
      per_page: 10,
    });
    expect(comments.map((c) => c.body)).toEqual(Array.from({ length: 35 }, (_v, i) => `comment ${i}`));
    expect(fake.requests.filter((r) => r.path.endsWith('/comments')).map((r) => r.query.page ?? '1')).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
  });

  it('reads the raw diff, and the PR head follows a push to origin', async () => {
    const octokit = client();
    const res = await octokit.rest.pulls.get({ ...repo, pull_number: 7, mediaType: { format: 'diff' } });
    expect(String(res.data)).toContain('diff --git a/src/math.js b/src/math.js');
    expect(String(res.data)).toContain('+const add = (a, b) => a - b;');
    const before = (await octokit.rest.pulls.get({ ...repo, pull_number: 7 })).data;
    expect(before.head.sha).toBe(origin.headSha);
    const pushed = await origin.push(
      'feature/planted-bug',
      { 'src/math.js': 'const add = (a, b) => a + b;\n' },
      'Fix add',
    );
    const after = (await octokit.rest.pulls.get({ ...repo, pull_number: 7 })).data;
    expect(after.head.sha).toBe(pushed);
    expect(after.commits).toBe(2);
    const files = await octokit.paginate(octokit.rest.pulls.listFiles, { ...repo, pull_number: 7, per_page: 100 });
    expect(files.some((f) => f.filename === 'src/math.js')).toBe(false);
  });

  it('pages 250 review threads 100/100/50 with first/after cursors', async () => {
    const octokit = client();
    const sizes: number[] = [];
    const ids = new Set<string>();
    let after: string | null = null;
    for (;;) {
      const page: ThreadsPage = await octokit.graphql<ThreadsPage>(THREADS_QUERY, {
        owner: repo.owner,
        name: repo.repo,
        number: 7,
        after,
        withReviews: false,
        withThreads: true,
      });
      const conn = page.repository.pullRequest.reviewThreads;
      expect(conn.totalCount).toBe(250);
      sizes.push(conn.nodes.length);
      for (const n of conn.nodes) ids.add(n.id);
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(sizes).toEqual([100, 100, 50]);
    expect(ids.size).toBe(250);
  });

  it('reads every review with the threads: the first 100 on the first page, the rest after the threads', async () => {
    // 150 reviews: an approval by carol, then a maintainer's change request as the 150th.
    for (let i = 0; i < 149; i++) fake.state.addReview(7, { login: 'carol', state: i % 2 ? 'COMMENTED' : 'APPROVED' });
    fake.state.addReview(7, { login: 'maintainer', state: 'CHANGES_REQUESTED', authorAssociation: 'MEMBER' });
    const before = fake.requests.length;
    const read = await getReviewThreads(client(), repo, 7);
    const bodies = fake.requests
      .slice(before)
      .map((r) => r.body as { query?: string; variables?: Record<string, unknown> });
    const asked = bodies.map((b) => {
      const v = b.variables ?? {};
      return `${/query (\w+)/.exec(b.query ?? '')?.[1]} threads:${v.withThreads} reviews:${v.withReviews}`;
    });
    // Three pages of threads (the reviews' first 100 with the first), then the rest of the reviews alone.
    expect(asked).toEqual([
      'ReviewThreads threads:true reviews:true',
      'ReviewThreads threads:true reviews:false',
      'ReviewThreads threads:true reviews:false',
      'ReviewThreads threads:false reviews:true',
    ]);
    expect(read.threads).toHaveLength(250);
    expect(read.reviews).toHaveLength(150);
    expect(computeReviewState(read.reviews)).toEqual({
      hasChangesRequested: true,
      changesRequestedBy: [{ login: 'maintainer', association: 'MEMBER' }],
    });
  });

  it('surfaces GraphQL validation errors as GitHub does', async () => {
    const octokit = client();
    const bad =
      'query { repository(owner: "octo-org", name: "demo-repo") { pullRequest(number: 7) { reviewThreads(first: 1) { nodes { resolved } } } } }';
    await expect(octokit.graphql(bad)).rejects.toThrow(/Cannot query field "resolved"/);
    const tooMany =
      'query { repository(owner: "octo-org", name: "demo-repo") { pullRequest(number: 7) { reviewThreads(first: 101) { totalCount } } } }';
    await expect(octokit.graphql(tooMany)).rejects.toThrow(/exceeds the `first` limit of 100 records/);
  });

  it('retries a 500 once and succeeds', async () => {
    fake.clearRequests();
    fake.failNext({ method: 'GET', path: /\/pulls\/7$/, status: 500 });
    const { data } = await client().rest.pulls.get({ ...repo, pull_number: 7 });
    expect(data.number).toBe(7);
    expect(fake.requests.map((r) => r.status)).toEqual([500, 200]);
  });

  it('waits out a secondary rate limit (403 + retry-after) through the throttling plugin', async () => {
    fake.clearRequests();
    fake.failNext({
      method: 'POST',
      path: /\/issues\/7\/comments$/,
      status: 403,
      headers: { 'retry-after': '1' },
      body: {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url:
          'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      },
    });
    const seen: number[] = [];
    const octokit = client({
      enabled: true,
      retryAfterBaseValue: 10,
      onSecondaryRateLimit: (after: number, _o: unknown, _k: unknown, count: number) => {
        seen.push(after);
        return count === 0;
      },
    });
    const { data } = await octokit.rest.issues.createComment({ ...repo, issue_number: 7, body: 'after the limit' });
    expect(seen).toEqual([1]);
    expect(data.user?.login).toBe('github-actions[bot]');
    expect(fake.writes().map((w) => w.status)).toEqual([403, 201]);
    expect(fake.comments(7).at(-1)?.body).toBe('after the limit');
  });

  it("does not retry a 422 and reports GitHub's message", async () => {
    fake.clearRequests();
    const octokit = client();
    // A literal URL: the typed route would not let us leave out the required body.
    await expect(octokit.request('POST /repos/octo-org/demo-repo/issues/7/comments', {})).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('"body" wasn\'t supplied'),
    });
    expect(fake.writes()).toHaveLength(1);
  });
});
