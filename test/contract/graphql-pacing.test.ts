// The action's client paces content-creating requests a second apart (GitHub's advice for
// POST/PATCH/PUT/DELETE), but not GraphQL queries, which only read (issue 8, part 4: the
// throttling plugin paced every POST /graphql like a write).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isMutation } from '../../src/github/client.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github/index.js';
import { createOrigin, type Origin } from './git-origin.js';

let origin: Origin;
let fake: FakeGitHub;

beforeAll(async () => {
  origin = await createOrigin({ 'a.txt': 'a\n' }, { 'a.txt': 'b\n' });
  fake = await startFakeGitHub({
    owner: 'octo-org', repo: 'demo-repo', originDir: origin.originDir,
    pulls: [{ number: 7, title: 'T', user: 'alice', headRef: 'feature/planted-bug' }],
  });
});
afterAll(async () => {
  await fake.close();
  await origin.cleanup();
});

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

describe('request pacing', () => {
  it('sends GraphQL queries without the one-second spacing of writes', async () => {
    const octokit = createClient({ token: 'ghs_pacing', baseUrl: fake.url, log: () => undefined, retryAfterBaseValue: 5 });
    const from = fake.requests.length;
    // Five at once: paced as writes (one at a time, a second apart), they would span 4 s or more;
    // unpaced they all go out together. The 1 s bound leaves room for a loaded machine.
    await Promise.all(Array.from({ length: 5 }, () => octokit.graphql('query { viewer { login } }')));
    const queries = fake.requests.slice(from).filter((r) => r.path === '/graphql');
    expect(queries).toHaveLength(5);
    const times = queries.map((q) => q.receivedAt);
    expect(Math.max(...times) - Math.min(...times)).toBeLessThan(1000);
  });

  it('still spaces content-creating requests', async () => {
    const octokit = createClient({ token: 'ghs_pacing', baseUrl: fake.url, log: () => undefined, retryAfterBaseValue: 5 });
    const from = fake.requests.length;
    for (let i = 0; i < 2; i++) {
      await octokit.rest.issues.createComment({ owner: 'octo-org', repo: 'demo-repo', issue_number: 7, body: `c${i}` });
    }
    const posts = fake.requests.slice(from).filter((r) => r.method === 'POST');
    expect(gaps(posts.map((p) => p.receivedAt))[0]).toBeGreaterThanOrEqual(900);
  });

  it('tells mutations from queries, comments and blanks included', () => {
    expect(isMutation('mutation { resolveReviewThread(input: {threadId: "x"}) { thread { id } } }')).toBe(true);
    expect(isMutation('# resolve it\n  mutation Resolve { x }')).toBe(true);
    expect(isMutation({ query: 'mutation { x }' })).toBe(true);
    expect(isMutation('query { viewer { login } }')).toBe(false);
    expect(isMutation('{ viewer { login } }')).toBe(false);
    expect(isMutation('query { mutationCount }')).toBe(false);
  });
});
