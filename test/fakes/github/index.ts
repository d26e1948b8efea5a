// A stateful fake of the GitHub REST and GraphQL API on 127.0.0.1, for tests, e2e runs of
// dist/index.js and the demo. Plain TypeScript: no test-framework imports here.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OriginRepo } from './git.js';
import { PullDataSource } from './pull-data.js';
import { createHandler } from './router.js';
import { FakeCi } from './ci.js';
import { FakeState } from './state.js';
import type { CommentState } from './state.js';
import type { FailureRule, FakeGitHubOptions, RecordedDispatch, RecordedRequest } from './types.js';

export type * from './types.js';
export type { CommentState, PullState, ReviewState, ThreadState } from './state.js';
export { FakeState } from './state.js';
export { githubSchema } from './graphql.js';
export { ACTIONS_BOT } from './ids.js';

export interface FakeGitHub {
  /** Base URL to use as GITHUB_API_URL / Octokit baseUrl (GraphQL is at `${url}/graphql`). */
  readonly url: string;
  /** Mutable state: addComment, addThread, resolveThread, addReview, updatePull, addPull, setPermission. */
  readonly state: FakeState;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Every accepted workflow_dispatch. */
  readonly dispatches: RecordedDispatch[];
  /** Non-GET requests other than POST /graphql (which only reads), failed ones included. */
  writes(): RecordedRequest[];
  /** Issue comments on a PR as stored (pre-existing and created through the API), oldest first. */
  comments(prNumber: number): CommentState[];
  /** Make the next matching request(s) fail with this status, headers and body. */
  failNext(rule: FailureRule): void;
  clearRequests(): void;
  close(): Promise<void>;
}

export async function startFakeGitHub(opts: FakeGitHubOptions): Promise<FakeGitHub> {
  const state = new FakeState(opts);
  const origin = opts.originDir ? new OriginRepo(opts.originDir) : null;
  state.ci = new FakeCi(opts.ci, async (sha, path) => {
    const found = origin ? await origin.readPath(sha, path) : null;
    return found?.type === 'file' && found.content ? found.content.toString('utf8') : null;
  });
  const data = new PullDataSource(state, origin, opts.forkDirs ?? {});
  const requests: RecordedRequest[] = [];
  const failures: FailureRule[] = [];
  let url = '';
  const web = (opts.serverUrl ?? 'https://github.com').replace(/\/+$/, '');
  const server = createServer(
    createHandler({
      base: () => ({ state, data, origin, urls: { api: url, web } }),
      failures,
      record: (r) => requests.push(r),
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    requests,
    dispatches: state.dispatches,
    writes: () => requests.filter((r) => r.method !== 'GET' && !(r.method === 'POST' && r.path === '/graphql')),
    comments: (n) => state.comments(n).map((c) => ({ ...c, user: { ...c.user } })),
    failNext: (rule) => {
      failures.push({ ...rule });
    },
    clearRequests: () => {
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Octokit keeps connections alive; without this, close() waits for them to time out.
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
