// The action's own client (src/github/client.ts: retry + throttling plugins) against the fake:
// a 4xx answer is final and asked once; 429 (GitHub's rate-limit answer) and 5xx are retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Octokit } from '../../src/github/client.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github/index.js';

const repo = { owner: 'octo-org', repo: 'demo-repo' };
let fake: FakeGitHub;
let octokit: Octokit;
const log: string[] = [];

beforeAll(async () => {
  // 301 changed files: one more than GitHub's diff media type serves.
  const files = Array.from({ length: 301 }, (_v, i) => ({ filename: `gen/f${i}.txt`, status: 'added' as const }));
  const pull = { number: 7, title: 'Big', user: 'alice', headRef: 'feature/big', files, diff: 'x\n' };
  fake = await startFakeGitHub({ ...repo, pulls: [pull] });
  octokit = createClient({ token: 't0k3n', baseUrl: fake.url, log: (m) => log.push(m), retryAfterBaseValue: 5 });
});

afterAll(async () => {
  await fake?.close();
});

const pullRequests = () => fake.requests.filter((r) => r.path === '/repos/octo-org/demo-repo/pulls/7');

describe("retries of the action's Octokit client", () => {
  it('asks once when GitHub refuses a diff past 300 files (406 too_large)', async () => {
    fake.clearRequests();
    await expect(
      octokit.rest.pulls.get({ ...repo, pull_number: 7, mediaType: { format: 'diff' } }),
    ).rejects.toMatchObject({ status: 406, message: expect.stringContaining('maximum number of files (300)') });
    expect(pullRequests().map((r) => r.status)).toEqual([406]);
  });

  it.each([400, 404, 406, 409, 410, 413, 415, 422, 451])('does not retry a %i', async (status) => {
    fake.clearRequests();
    fake.failNext({ method: 'GET', path: /\/pulls\/7$/, status });
    await expect(octokit.rest.pulls.get({ ...repo, pull_number: 7 })).rejects.toMatchObject({ status });
    expect(pullRequests().map((r) => r.status)).toEqual([status]);
  });

  it('retries a 429 (rate limited) and then succeeds', async () => {
    fake.clearRequests();
    const body = { message: 'API rate limit exceeded' };
    fake.failNext({ method: 'GET', path: /\/pulls\/7$/, status: 429, headers: { 'retry-after': '1' }, body });
    const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: 7 });
    expect(data.number).toBe(7);
    expect(pullRequests().map((r) => r.status)).toEqual([429, 200]);
  });

  it.each([500, 502, 503])('retries a %i and then succeeds', async (status) => {
    fake.clearRequests();
    fake.failNext({ method: 'GET', path: /\/pulls\/7$/, status, times: 2 });
    const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: 7 });
    expect(data.number).toBe(7);
    expect(pullRequests().map((r) => r.status)).toEqual([status, status, 200]);
  });
});
