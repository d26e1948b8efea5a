// The one Octokit the action uses: @actions/github's client with retry and throttling.
// The base URL is passed explicitly at call time because @actions/github captures
// GITHUB_API_URL once, when it is first imported: given explicitly, each client talks to the URL
// it was given (a test process starts many fake GitHubs, each on a port of its own).
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';

export type Octokit = ReturnType<typeof getOctokit>;

export interface ClientOptions {
  token: string;
  baseUrl: string;
  log: (msg: string) => void;
  /** Seconds between retries; tests set it small. */
  retryAfterBaseValue?: number;
}

/**
 * Every 4xx but 429 is GitHub's final word on the request (406 `too_large` for a diff past 300
 * files, 404, 409, 422, …): asking again only adds delay (@octokit/plugin-retry's own list,
 * 400/401/403/404/410/422/451, still retries the others three times, about 14 s). 429 is the
 * rate-limit answer GitHub says to retry after `retry-after`
 * (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api); 5xx are
 * retried too. A 403 for a rate limit is waited out by the throttling plugin, not this list.
 */
const DO_NOT_RETRY = Array.from({ length: 100 }, (_v, i) => 400 + i).filter((status) => status !== 429);

export function createClient(opts: ClientOptions): Octokit {
  const retryAfterBaseValue = opts.retryAfterBaseValue ?? 1000;
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const octokit = getOctokit(
    opts.token,
    {
      baseUrl,
      retry: { retryAfterBaseValue, doNotRetry: DO_NOT_RETRY },
      throttle: {
        // The plugin keeps its limiters per process and keys them by this id: every client of one
        // GitHub shares one pacing (a run talks to one), and a test's fake GitHub, on a port of its
        // own, is not kept waiting for writes another test's sent to another fake (3 s apart).
        id: baseUrl,
        retryAfterBaseValue,
        onRateLimit: (retryAfter: number, options: { method: string; url: string }, _o: unknown, count: number) => {
          opts.log(`GitHub rate limit on ${options.method} ${options.url}; retry ${count + 1} in ${retryAfter}s`);
          return count < 2;
        },
        onSecondaryRateLimit: (
          retryAfter: number,
          options: { method: string; url: string },
          _o: unknown,
          count: number,
        ) => {
          opts.log(
            `GitHub secondary rate limit on ${options.method} ${options.url}; retry ${count + 1} in ${retryAfter}s`,
          );
          return count < 2;
        },
      },
    },
    retry,
    throttling,
  );
  return withUnpacedQueries(
    octokit,
    getOctokit(
      opts.token,
      {
        baseUrl,
        retry: { retryAfterBaseValue, doNotRetry: DO_NOT_RETRY },
      },
      retry,
    ),
  );
}

/**
 * The throttling plugin sends every POST /graphql through its "write" limiter, one at a time and
 * a second apart, as if each query created content (@octokit/plugin-throttling, wrap-request.js:
 * `if (isWrite || isGraphQL)`). GitHub asks for that spacing only for requests that create
 * content ("If you are making a large number of POST, PATCH, PUT, or DELETE requests ..., wait
 * at least one second between each request",
 * https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api). A query
 * only reads, so queries go through a client without the write pacing (retries kept); mutations
 * keep it.
 */
function withUnpacedQueries(octokit: Octokit, reader: Octokit): Octokit {
  const paced = octokit.graphql;
  const unpaced = reader.graphql;
  const route = ((query: unknown, params?: unknown) =>
    (isMutation(query) ? paced : unpaced)(query as never, params as never)) as typeof paced;
  octokit.graphql = Object.assign(route, { defaults: paced.defaults, endpoint: paced.endpoint });
  return octokit;
}

/** A GraphQL document that starts (after comments and blanks) with `mutation`. */
export function isMutation(query: unknown): boolean {
  const text = typeof query === 'string' ? query : (query as { query?: unknown } | null)?.query;
  if (typeof text !== 'string') return true; // unknown shape: keep the pacing
  return /^(?:\s|#[^\n]*\n)*mutation\b/.test(text);
}

export function apiUrlFromEnv(env: NodeJS.ProcessEnv): string {
  return env.GITHUB_API_URL || 'https://api.github.com';
}

export function serverUrlFromEnv(env: NodeJS.ProcessEnv): string {
  return (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
}
