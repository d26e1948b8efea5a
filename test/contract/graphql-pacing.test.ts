// The action's client paces content-creating requests a second apart (GitHub's advice for
// POST/PATCH/PUT/DELETE), but not GraphQL queries, which only read (the
// throttling plugin used to pace every POST /graphql like a write).
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isMutation } from '../../src/github/client.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github/index.js';
import { createOrigin, type Origin } from './git-origin.js';

let origin: Origin;
let fake: FakeGitHub;

beforeAll(async () => {
  origin = await createOrigin({ 'a.txt': 'a\n' }, { 'a.txt': 'b\n' });
  fake = await startFakeGitHub({
    owner: 'octo-org',
    repo: 'demo-repo',
    originDir: origin.originDir,
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
    // Paced as writes, each query would leave at least a second after the one before it, all four
    // gaps. Unpaced, the five leave together: however loaded the machine, they cannot all be spread
    // that far apart. (A bound on the whole span failed on a loaded machine.) The server holds every
    // answer until all five have arrived, so answering cannot space them either.
    const held: ServerResponse[] = [];
    const arrivals: number[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        arrivals.push(performance.now());
        held.push(res);
        if (held.length < 5) return;
        for (const r of held.splice(0)) {
          r.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"viewer":{"login":"x"}}}');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const octokit = createClient({ token: 'ghs_pacing', baseUrl: `http://127.0.0.1:${port}`, log: () => undefined });
      await Promise.all(Array.from({ length: 5 }, () => octokit.graphql('query { viewer { login } }')));
      expect(arrivals).toHaveLength(5);
      expect(Math.min(...gaps(arrivals))).toBeLessThan(900);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('still spaces content-creating requests', async () => {
    const octokit = createClient({
      token: 'ghs_pacing',
      baseUrl: fake.url,
      log: () => undefined,
      retryAfterBaseValue: 5,
    });
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
