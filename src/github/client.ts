// The one Octokit the action uses: @actions/github's client with retry and throttling.
// The base URL is passed explicitly at call time because @actions/github captures
// GITHUB_API_URL when it is first imported (DESIGN.md "Build").
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

export function createClient(opts: ClientOptions): Octokit {
  const retryAfterBaseValue = opts.retryAfterBaseValue ?? 1000;
  return getOctokit(
    opts.token,
    {
      baseUrl: opts.baseUrl.replace(/\/+$/, ''),
      retry: { retryAfterBaseValue },
      throttle: {
        retryAfterBaseValue,
        onRateLimit: (retryAfter: number, options: { method: string; url: string }, _o: unknown, count: number) => {
          opts.log(`GitHub rate limit on ${options.method} ${options.url}; retry ${count + 1} in ${retryAfter}s`);
          return count < 2;
        },
        onSecondaryRateLimit: (retryAfter: number, options: { method: string; url: string }, _o: unknown, count: number) => {
          opts.log(`GitHub secondary rate limit on ${options.method} ${options.url}; retry ${count + 1} in ${retryAfter}s`);
          return count < 2;
        },
      },
    },
    retry,
    throttling,
  );
}

export function apiUrlFromEnv(env: NodeJS.ProcessEnv): string {
  return env.GITHUB_API_URL || 'https://api.github.com';
}

export function serverUrlFromEnv(env: NodeJS.ProcessEnv): string {
  return (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
}
