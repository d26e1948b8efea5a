// The token's own login from GraphQL `viewer`, with the real Octokit against the fake GitHub.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/github/client.js';
import { getTokenLogin } from '../../src/github/comments.js';
import { getTokenIdentity, tokenKindOf } from '../../src/github/identity.js';
import { startFakeGitHub, type FakeGitHub, type FakeToken } from '../fakes/github/index.js';

let fake: FakeGitHub | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function clientFor(token?: FakeToken) {
  fake = await startFakeGitHub({ owner: 'octo-org', repo: 'demo-repo', ...(token ? { token } : {}) });
  return createClient({ token: 'ghs_test', baseUrl: fake.url, log: () => undefined, retryAfterBaseValue: 1 });
}

describe('getTokenIdentity', () => {
  it.each<[string, FakeToken | undefined, string, string]>([
    ['GITHUB_TOKEN (the fake default)', undefined, 'github-actions[bot]', 'actions'],
    ['GITHUB_TOKEN', { kind: 'actions' }, 'github-actions[bot]', 'actions'],
    ['a GitHub App token', { kind: 'app', slug: 'review-app' }, 'review-app[bot]', 'app'],
    ['a PAT', { kind: 'user', login: 'maint' }, 'maint', 'user'],
  ])('%s: the login its comments carry, in one viewer request and no GET /user', async (_name, token, login, kind) => {
    const octokit = await clientFor(token);
    expect(await getTokenIdentity(octokit)).toEqual({ login, kind });
    expect(fake!.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /graphql']);
    expect(await getTokenLogin(octokit)).toBe(login);
  });

  it('falls back to github-actions[bot] only when viewer is refused; other failures propagate', async () => {
    const octokit = await clientFor({ kind: 'app', slug: 'review-app' });
    const graphqlError = (type: string, message: string) => {
      const body = { data: null, errors: [{ type, message }] };
      fake!.failNext({ method: 'POST', path: /^\/graphql$/, status: 200, body });
    };
    graphqlError('FORBIDDEN', 'Resource not accessible by integration');
    expect(await getTokenIdentity(octokit)).toEqual({ login: 'github-actions[bot]', kind: 'actions' });
    graphqlError('SOMETHING_ELSE', 'boom');
    await expect(getTokenIdentity(octokit)).rejects.toThrow(/boom/);
  });
});

describe('tokenKindOf', () => {
  it('tells the Actions bot, other bots (Apps) and users apart', () => {
    expect(tokenKindOf('github-actions[bot]')).toBe('actions');
    expect(tokenKindOf('my-app[bot]')).toBe('app');
    expect(tokenKindOf('octocat')).toBe('user');
    expect(tokenKindOf('github-actions')).toBe('user');
  });
});
