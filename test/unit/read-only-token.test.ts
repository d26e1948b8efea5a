// When the token is known read-only before anything is written, and how a refusal is told
// apart from other 403s (real Octokit errors from the fake GitHub).
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/github/client.js';
import type { TokenIdentity } from '../../src/github/identity.js';
import { describeRefusal, readOnlyAdvice, readOnlyFromEvent, writeRefusal } from '../../src/github/read-only-token.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github/index.js';

const REPO = { owner: 'octo-org', repo: 'demo-repo' };
const ACTIONS: TokenIdentity = { login: 'github-actions[bot]', kind: 'actions' };
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/events/${name}`, import.meta.url), 'utf8'));
const forkFixture = () => fixture('pull_request.opened.fork.json');
const sameRepo = () => fixture('pull_request.opened.json');

describe('readOnlyFromEvent', () => {
  it('a pull_request from a fork of a public repository: GITHUB_TOKEN is read-only', () => {
    const reason = readOnlyFromEvent({ eventName: 'pull_request', payload: forkFixture(), identity: ACTIONS });
    expect(reason).toMatch(/pull_request for a PR from the fork Codertocat\/demo-repo/);
  });

  it('a deleted fork (head.repo null) still counts as a fork', () => {
    const payload = forkFixture();
    payload.pull_request.head.repo = null;
    const reason = readOnlyFromEvent({ eventName: 'pull_request', payload, identity: ACTIONS });
    expect(reason).toMatch(/a fork that was deleted/);
  });

  it('a pull_request started by Dependabot runs as if from a fork', () => {
    const payload = { ...sameRepo(), sender: { login: 'dependabot[bot]', type: 'Bot' } };
    expect(readOnlyFromEvent({ eventName: 'pull_request', payload, identity: ACTIONS })).toMatch(/Dependabot/);
  });

  it('says nothing where GitHub may give a write token', () => {
    const fork = forkFixture();
    // pull_request_target gets the base repository's token, even from a fork.
    expect(readOnlyFromEvent({ eventName: 'pull_request_target', payload: fork, identity: ACTIONS })).toBeNull();
    // A private repository may "Send write tokens to workflows from pull requests".
    const privateFork = { ...fork, repository: { ...fork.repository, private: true } };
    expect(readOnlyFromEvent({ eventName: 'pull_request', payload: privateFork, identity: ACTIONS })).toBeNull();
    // A token of its own (an App or a PAT) is not the event's GITHUB_TOKEN.
    const app: TokenIdentity = { login: 'app[bot]', kind: 'app' };
    expect(readOnlyFromEvent({ eventName: 'pull_request', payload: fork, identity: app })).toBeNull();
    expect(readOnlyFromEvent({ eventName: 'pull_request', payload: sameRepo(), identity: ACTIONS })).toBeNull();
  });
});

describe('writeRefusal', () => {
  let fake: FakeGitHub | null = null;
  afterEach(async () => {
    await fake?.close();
    fake = null;
  });

  async function errorOf(opts: { readOnly: boolean; fail?: { status: number; body: unknown } }): Promise<unknown> {
    fake = await startFakeGitHub({
      owner: 'octo-org',
      repo: 'demo-repo',
      token: { kind: 'actions', ...(opts.readOnly ? { readOnly: true as const } : {}) },
      pulls: [{ number: 7, title: 'T', user: 'alice', headRef: 'x' }],
    });
    if (opts.fail) fake.failNext({ method: 'POST', path: /\/comments$/, ...opts.fail, times: 5 });
    const octokit = createClient({
      token: 'ghs_test',
      baseUrl: fake.url,
      log: () => undefined,
      retryAfterBaseValue: 1,
    });
    const comment = octokit.rest.issues.createComment({ ...REPO, issue_number: 7, body: 'x' });
    return comment.then(
      () => null,
      (e: unknown) => e,
    );
  }

  it("reads GitHub's refusal: the request, its message and the permissions the endpoint needs", async () => {
    const refusal = writeRefusal(await errorOf({ readOnly: true }));
    expect(refusal).toEqual({
      request: 'POST /repos/octo-org/demo-repo/issues/7/comments',
      message: 'Resource not accessible by integration',
      accepted: 'issues=write; pull_requests=write',
    });
    expect(describeRefusal(refusal!)).toBe(
      'GitHub refused POST /repos/octo-org/demo-repo/issues/7/comments: "Resource not accessible by integration"' +
        ' (the endpoint needs issues=write; pull_requests=write)',
    );
  });

  it('is not fooled by other 403s or other errors', async () => {
    const lockedBody = { message: 'Unable to create comment because issue is locked.' };
    const locked = await errorOf({ readOnly: false, fail: { status: 403, body: lockedBody } });
    expect((locked as { status?: number }).status).toBe(403);
    expect(writeRefusal(locked)).toBeNull();
    expect(writeRefusal(new Error('Resource not accessible by integration'))).toBeNull();
    expect(writeRefusal(undefined)).toBeNull();
  });
});

describe('readOnlyAdvice', () => {
  it("says why, and links GitHub's pull_request_target docs and security notes", () => {
    const text = readOnlyAdvice('because');
    expect(text).toContain('because');
    expect(text).toContain('https://docs.github.com/en/actions/reference/security/securely-using-pull_request_target');
    const event = 'https://docs.github.com/en/actions/reference/workflows-and-actions/events-that-trigger-workflows';
    expect(text).toContain(`${event}#pull_request_target`);
    for (const line of text.split('\n').slice(0, -1)) expect(line.length).toBeLessThanOrEqual(120);
  });
});
