// Behaviour of the fake itself that e2e tests rely on: recording, scripted failures,
// state changes between runs, identities, forks, static PRs, GraphQL errors.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGitHub } from '../fakes/github/index.js';
import type { FakeGitHub, FakeGitHubOptions } from '../fakes/github/index.js';
import { createOrigin } from './git-origin.js';
import type { Origin } from './git-origin.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(extra: Partial<FakeGitHubOptions> = {}): Promise<FakeGitHub> {
  const fake = await startFakeGitHub({
    owner: 'octo-org',
    repo: 'demo-repo',
    pulls: [
      {
        number: 7,
        title: 'T',
        user: 'alice',
        headRef: 'feature/x',
        files: [{ filename: 'a.txt', status: 'added', additions: 1, patch: '@@ -0,0 +1 @@\n+a' }],
        diff: 'diff --git a/a.txt b/a.txt\n',
      },
    ],
    ...extra,
  });
  cleanups.push(() => fake.close());
  return fake;
}

async function origin(): Promise<Origin> {
  const o = await createOrigin({ 'a.txt': 'a\n' }, { 'a.txt': 'b\n' });
  cleanups.push(() => o.cleanup());
  return o;
}

const api = (fake: FakeGitHub, method: string, path: string, body?: unknown, token: string | null = 'token s3cret') =>
  fetch(fake.url + path, {
    method,
    headers: { ...(token ? { authorization: token } : {}), 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

const gql = async (fake: FakeGitHub, query: string, variables: Record<string, unknown> = {}) =>
  (await api(fake, 'POST', '/graphql', { query, variables })).json() as Promise<{ data?: any; errors?: any[] }>;

describe('fake GitHub behaviour', () => {
  it('records requests with the token redacted; writes() leaves out reads and GraphQL', async () => {
    const fake = await start();
    await api(fake, 'GET', '/repos/octo-org/demo-repo/pulls/7?x=1');
    await api(fake, 'POST', '/repos/octo-org/demo-repo/issues/7/comments', { body: 'hi' });
    await gql(fake, '{ repository(owner:"octo-org", name:"demo-repo") { name } }');
    await api(fake, 'POST', '/repos/octo-org/demo-repo/actions/workflows/ci.yml/dispatches', {
      ref: 'feature/x',
      inputs: { pr: '7' },
    });
    expect(fake.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /repos/octo-org/demo-repo/pulls/7 200',
      'POST /repos/octo-org/demo-repo/issues/7/comments 201',
      'POST /graphql 200',
      'POST /repos/octo-org/demo-repo/actions/workflows/ci.yml/dispatches 204',
    ]);
    expect(fake.requests[0]?.query).toEqual({ x: '1' });
    expect(fake.requests[1]?.headers.authorization).toBe('token [REDACTED]');
    expect(JSON.stringify(fake.requests)).not.toContain('s3cret');
    expect(fake.writes().map((w) => w.body)).toEqual([{ body: 'hi' }, { ref: 'feature/x', inputs: { pr: '7' } }]);
    expect(fake.dispatches).toEqual([{ workflowId: 'ci.yml', ref: 'feature/x', inputs: { pr: '7' } }]);
  });

  it('failNext fails exactly `times` matching requests, then serves normally', async () => {
    const fake = await start();
    fake.failNext({ method: 'GET', path: /\/pulls\/7$/, status: 502, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api(fake, 'GET', '/repos/octo-org/demo-repo/pulls/7')).status);
    expect(statuses).toEqual([502, 502, 200]);
  });

  it('authors API comments as github-actions[bot], or as tokenLogin with its association', async () => {
    const bot = await start();
    const made = await (await api(bot, 'POST', '/repos/octo-org/demo-repo/issues/7/comments', { body: 'x' })).json();
    expect(made.user).toMatchObject({ login: 'github-actions[bot]', id: 41898282, type: 'Bot' });
    // viewer answers installation tokens too, with the [bot] suffix REST shows.
    expect(await gql(bot, '{ viewer { login } }')).toEqual({ data: { viewer: { login: 'github-actions[bot]' } } });

    const user = await start({ tokenLogin: 'maint', collaborators: { maint: 'maintain' } });
    const byUser = await (await api(user, 'POST', '/repos/octo-org/demo-repo/issues/7/comments', { body: 'x' })).json();
    expect(byUser).toMatchObject({ user: { login: 'maint', type: 'User' }, author_association: 'COLLABORATOR' });
    expect(await (await api(user, 'GET', '/user')).json()).toMatchObject({ login: 'maint' });
  });

  it('token identities: GET /user refuses installation tokens; comments and viewer carry its login', async () => {
    const cases = [
      { token: { kind: 'actions' as const }, login: 'github-actions[bot]', type: 'Bot', user: 403 },
      { token: { kind: 'app' as const, slug: 'review-app' }, login: 'review-app[bot]', type: 'Bot', user: 403 },
      { token: { kind: 'user' as const, login: 'maint' }, login: 'maint', type: 'User', user: 200 },
    ];
    for (const c of cases) {
      const fake = await start({ token: c.token, collaborators: { maint: 'write' } });
      const me = await api(fake, 'GET', '/user');
      expect(me.status, c.login).toBe(c.user);
      if (c.user === 403) expect(await me.json()).toMatchObject({ message: 'Resource not accessible by integration' });
      const made = await (await api(fake, 'POST', '/repos/octo-org/demo-repo/issues/7/comments', { body: 'x' })).json();
      expect(made.user).toMatchObject({ login: c.login, type: c.type });
      expect((await gql(fake, 'query { viewer { login } }')).data.viewer.login).toBe(c.login);
      // Installation tokens get an all-false permissions block; a user token's comes from repoPermissions.
      const repo = await (await api(fake, 'GET', '/repos/octo-org/demo-repo')).json();
      const allFalse = { admin: false, maintain: false, push: false, triage: false, pull: false };
      if (c.user === 403) expect(repo.permissions).toEqual(allFalse);
      else expect(repo).not.toHaveProperty('permissions');
    }
  });

  it('a read-only token: REST writes and GraphQL mutations are refused, reads and queries answer', async () => {
    const fake = await start({ token: { kind: 'actions', readOnly: true }, workflows: ['ci.yml'] });
    const comment = await api(fake, 'POST', '/repos/octo-org/demo-repo/issues/7/comments', { body: 'x' });
    expect(comment.status).toBe(403);
    expect(comment.headers.get('x-accepted-github-permissions')).toBe('issues=write; pull_requests=write');
    expect(await comment.json()).toMatchObject({
      message: 'Resource not accessible by integration',
      documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
    });
    const dispatch = await api(fake, 'POST', '/repos/octo-org/demo-repo/actions/workflows/ci.yml/dispatches', {
      ref: 'main',
    });
    expect(dispatch.status).toBe(403);
    expect(dispatch.headers.get('x-accepted-github-permissions')).toBe('actions=write');
    expect(fake.comments(7)).toEqual([]);
    expect(fake.dispatches).toEqual([]);
    // A route that does not exist stays 404; reads answer.
    expect((await api(fake, 'POST', '/repos/octo-org/demo-repo/nothing-here', {})).status).toBe(404);
    expect((await api(fake, 'GET', '/repos/octo-org/demo-repo/issues/7/comments')).status).toBe(200);
    expect((await gql(fake, '{ viewer { login } }')).data.viewer.login).toBe('github-actions[bot]');
    const mutation = 'mutation { c: addComment(input: { subjectId: "x", body: "y" }) { clientMutationId } }';
    expect(await gql(fake, mutation)).toMatchObject({
      data: { c: null },
      errors: [{ type: 'FORBIDDEN', path: ['c'], message: 'Resource not accessible by integration' }],
    });
    // The same token without readOnly writes.
    const writable = await start({ token: { kind: 'actions' } });
    const posted = await api(writable, 'POST', '/repos/octo-org/demo-repo/issues/7/comments', { body: 'x' });
    expect(posted.status).toBe(201);
  });

  it('state changes between runs show up in REST and GraphQL', async () => {
    const fake = await start();
    fake.state.addComment(7, { login: 'carol', body: '/review-loop' });
    const t = fake.state.addThread(7, { path: 'a.txt', line: 1, comments: [{ body: 'why?', author: 'dave' }] });
    fake.state.addReview(7, { login: 'erin', state: 'APPROVED' });
    fake.state.updatePull(7, { state: 'closed' });
    const pr = await (await api(fake, 'GET', '/repos/octo-org/demo-repo/pulls/7')).json();
    expect(pr).toMatchObject({ state: 'closed', merged: false, comments: 1 });
    expect(pr.closed_at).toEqual(expect.any(String));
    const q =
      '{ repository(owner:"octo-org", name:"demo-repo") { pullRequest(number: 7) { state reviewThreads(first: 10) { nodes { id isResolved comments(first: 5) { nodes { body author { login } } } } } } } }';
    let res = await gql(fake, q);
    expect(res.data.repository.pullRequest).toMatchObject({
      state: 'CLOSED',
      reviewThreads: {
        nodes: [{ id: t.id, isResolved: false, comments: { nodes: [{ body: 'why?', author: { login: 'dave' } }] } }],
      },
    });
    fake.state.resolveThread(t.id);
    res = await gql(fake, q);
    expect(res.data.repository.pullRequest.reviewThreads.nodes[0].isResolved).toBe(true);
    expect(fake.comments(7).map((c) => c.user.login)).toEqual(['carol']);
  });

  it('resolves threads, minimizes comments and marks drafts ready, refusing what the permissions do not cover', async () => {
    const fake = await start({ tokenPermissions: { contents: 'read' } });
    fake.state.updatePull(7, { draft: true });
    const t = fake.state.addThread(7, {
      path: 'a.txt',
      line: 1,
      comments: [{ body: 'ours', author: 'github-actions[bot]' }],
    });
    const c = fake.state.addComment(7, { login: 'github-actions[bot]', body: 'old report' });
    const commentId = (await (await api(fake, 'GET', '/repos/octo-org/demo-repo/issues/7/comments')).json())[0].node_id;
    const pr = await gql(
      fake,
      '{ repository(owner:"octo-org", name:"demo-repo") { pullRequest(number: 7) { id isDraft } } }',
    );
    const prId = pr.data.repository.pullRequest.id;
    const resolve = `mutation { r: resolveReviewThread(input: { threadId: "${t.id}" }) { thread { isResolved resolvedBy { login } } } }`;
    const ready = `mutation { m: markPullRequestReadyForReview(input: { pullRequestId: "${prId}" }) { pullRequest { isDraft } } }`;
    // contents: read: both need contents: write (github/gh-aw#35726, cli/cli#8910).
    for (const m of [resolve, ready]) {
      const refused = await gql(fake, m);
      expect(refused.errors).toEqual([
        expect.objectContaining({ type: 'FORBIDDEN', message: 'Resource not accessible by integration' }),
      ]);
    }
    expect(fake.state.threads(7)[0]!.isResolved).toBe(false);
    const minimize = `mutation { h: minimizeComment(input: { subjectId: "${commentId}", classifier: OUTDATED }) {
      minimizedComment { isMinimized minimizedReason } } }`;
    expect((await gql(fake, minimize)).data.h.minimizedComment).toEqual({
      isMinimized: true,
      minimizedReason: 'outdated',
    });
    expect(c.minimizedReason).toBe('outdated');
    const read = await gql(fake, `{ nodes(ids: ["${commentId}"]) { ... on IssueComment { isMinimized } } }`);
    expect(read.data.nodes).toEqual([{ isMinimized: true }]);

    const writable = await start();
    const t2 = writable.state.addThread(7, {
      path: 'a.txt',
      line: 1,
      comments: [{ body: 'ours', author: 'github-actions[bot]' }],
    });
    writable.state.updatePull(7, { draft: true });
    const resolved = await gql(writable, resolve.replace(t.id, t2.id));
    expect(resolved.data.r.thread).toEqual({ isResolved: true, resolvedBy: { login: 'github-actions' } });
    const id2 = (
      await gql(writable, '{ repository(owner:"octo-org", name:"demo-repo") { pullRequest(number: 7) { id } } }')
    ).data.repository.pullRequest.id;
    expect((await gql(writable, ready.replace(prId, id2))).data.m.pullRequest).toEqual({ isDraft: false });
  });

  it('serves a static PR (no originDir) from its input files and diff', async () => {
    const fake = await start();
    const files = await (await api(fake, 'GET', '/repos/octo-org/demo-repo/pulls/7/files')).json();
    expect(files).toEqual([
      expect.objectContaining({
        filename: 'a.txt',
        status: 'added',
        additions: 1,
        changes: 1,
        patch: '@@ -0,0 +1 @@\n+a',
      }),
    ]);
    const diff = await (
      await fetch(`${fake.url}/repos/octo-org/demo-repo/pulls/7`, {
        headers: { accept: 'application/vnd.github.v3.diff' },
      })
    ).text();
    expect(diff).toBe('diff --git a/a.txt b/a.txt\n');
  });

  it('lists renamed, removed, added and binary files as GitHub does', async () => {
    const long = Array.from({ length: 20 }, (_v, i) => `line ${i}`).join('\n');
    const o = await createOrigin(
      { 'old name.txt': `${long}\n`, 'gone.txt': 'x\n', 'keep.txt': '1\n' },
      {
        'old name.txt': null,
        'new name.txt': `${long}\nmore\n`,
        'gone.txt': null,
        'img.bin': '\u0000\u0001\u0002',
        'keep.txt': '2\n',
      },
    );
    cleanups.push(() => o.cleanup());
    const fake = await start({
      originDir: o.originDir,
      pulls: [{ number: 7, title: 'T', user: 'a', headRef: 'feature/planted-bug' }],
    });
    const files = await (await api(fake, 'GET', '/repos/octo-org/demo-repo/pulls/7/files')).json();
    const by = Object.fromEntries(files.map((f: { filename: string }) => [f.filename, f]));
    expect(Object.keys(by).sort()).toEqual(['gone.txt', 'img.bin', 'keep.txt', 'new name.txt']);
    expect(by['new name.txt']).toMatchObject({
      status: 'renamed',
      previous_filename: 'old name.txt',
      additions: 1,
      deletions: 0,
    });
    expect(by['gone.txt']).toMatchObject({ status: 'removed', sha: null, deletions: 1 });
    expect(by['keep.txt']).toMatchObject({ status: 'modified', patch: '@@ -1 +1 @@\n-1\n+2' });
    expect(by['img.bin']).toMatchObject({ status: 'added', additions: 0 });
    expect(by['img.bin']).not.toHaveProperty('patch');
  });

  it('reads a fork PR head from refs/pull/N/head in origin', async () => {
    const o = await origin();
    const fake = await start({
      originDir: o.originDir,
      pulls: [{ number: 3, title: 'F', user: 'eve', headRef: 'patch-1', headRepoFullName: 'eve/demo-repo' }],
    });
    await o.updateRef('refs/pull/3/head', o.headSha);
    const pr = await (await api(fake, 'GET', '/repos/octo-org/demo-repo/pulls/3')).json();
    expect(pr.head).toMatchObject({
      sha: o.headSha,
      ref: 'patch-1',
      label: 'eve:patch-1',
      repo: { full_name: 'eve/demo-repo', fork: true },
    });
    expect(pr.base).toMatchObject({ sha: o.baseSha, ref: 'main', repo: { full_name: 'octo-org/demo-repo' } });
  });

  it('refuses what GitHub refuses: unknown repo, dispatch to a missing ref, GraphQL without a token', async () => {
    const o = await origin();
    const fake = await start({ originDir: o.originDir, pulls: [] });
    expect((await api(fake, 'GET', '/repos/someone/else')).status).toBe(404);
    const noRef = await api(fake, 'POST', '/repos/octo-org/demo-repo/actions/workflows/ci.yml/dispatches', {
      ref: 'gone',
    });
    expect(noRef.status).toBe(422);
    expect(fake.dispatches).toEqual([]);
    expect((await api(fake, 'POST', '/graphql', { query: '{ viewer { login } }' }, null)).status).toBe(401);
    const missing = await gql(
      fake,
      '{ repository(owner:"octo-org", name:"demo-repo") { pullRequest(number: 1) { id } } }',
    );
    expect(missing.errors?.[0]).toMatchObject({ type: 'NOT_FOUND', path: ['repository', 'pullRequest'] });
    const unmodelled = await gql(fake, '{ repository(owner:"octo-org", name:"demo-repo") { stargazerCount } }');
    expect(unmodelled.errors?.[0]?.message).toMatch(/not implemented by the fake/);
  });
});
