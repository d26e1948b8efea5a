// Whether a run may push its fixes, and where, decided against the fake GitHub (the token's
// permission as GET /repos shows it) and a real checkout's origin URL: a read-only token from the
// event pushes nothing and asks nothing, a fork PR's fixes go to the fork's URL only with
// allow-fork-fixes and a token that can push there.
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/github/client.js';
import { createGit, type Git } from '../../src/git/runner.js';
import { planPush, type PushPlanInput } from '../../src/preflight/push-plan.js';
import { startFakeGitHub, type FakeGitHubOptions, type FakeGitHub } from '../fakes/github/index.js';
import { meta } from '../factories.js';

const REPO = { owner: 'octo-org', repo: 'demo-repo' };
const event = (name: string) => fileURLToPath(new URL(`../fixtures/events/${name}`, import.meta.url));
const SAME_REPO = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event('pull_request.opened.json') };
const FORK_PR = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event('pull_request.opened.fork.json') };
const FORK_TARGET = {
  GITHUB_EVENT_NAME: 'pull_request_target',
  GITHUB_EVENT_PATH: event('pull_request.opened.fork.json'),
};
const forkMeta = (maintainerCanModify: boolean) =>
  meta({ headRepoFullName: 'Codertocat/demo-repo', maintainerCanModify });

let dir: string;
let git: Git;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'push-plan-'));
  git = createGit(dir, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' } });
  await git(['init', '--quiet']);
  await git(['remote', 'add', 'origin', 'https://github.com/octo-org/demo-repo.git']);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let fake: FakeGitHub | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function plan(over: Partial<PushPlanInput>, github: Partial<FakeGitHubOptions> = {}) {
  const pulls = [{ number: 7, title: 'T', user: 'Codertocat', headRef: 'x' }];
  fake = await startFakeGitHub({ ...REPO, pulls, ...github });
  const octokit = createClient({ token: 't', baseUrl: fake.url, log: () => undefined, retryAfterBaseValue: 1 });
  const result = await planPush({
    octokit,
    repo: REPO,
    meta: meta(),
    git,
    mode: 'fix',
    allowForkFixes: false,
    fork: false,
    identity: { login: 'github-actions[bot]', kind: 'actions' },
    env: SAME_REPO,
    fixerWithheld: null,
    ...over,
  });
  // The permission reads: GET /repos/{owner}/{repo}.
  const asked = fake.requests
    .filter((r) => r.method === 'GET' && /^\/repos\/[^/]+\/[^/]+$/.test(r.path))
    .map((r) => r.path);
  return { ...result, asked };
}

it('a same-repository PR with a token that can write pushes to origin', async () => {
  const p = await plan({}, { repoPermissions: { admin: false, push: true, pull: true } });
  expect(p).toEqual({
    canPush: true,
    reason: null,
    readOnlyToken: null,
    remote: 'origin',
    asked: ['/repos/octo-org/demo-repo'],
  });
});

it('a fixer withheld for want of isolation makes the run review-only, saying why', async () => {
  const why = 'this runner cannot isolate (no sudo)';
  const p = await plan({ fixerWithheld: why }, { repoPermissions: { admin: false, push: true, pull: true } });
  expect(p).toMatchObject({ canPush: false, reason: why, remote: 'origin' });
});

it('a token GitHub shows with read permission only makes the run review-only, saying why', async () => {
  const p = await plan({}, { repoPermissions: { admin: false, push: false, pull: true } });
  expect(p.canPush).toBe(false);
  expect(p.reason).toBe('the token has "read" permission; pushing needs write, maintain or admin');
});

it("an installation token's all-false permissions are no verdict: the push is tried", async () => {
  const p = await plan({}, { token: { kind: 'actions' } });
  expect(p).toMatchObject({ canPush: true, reason: null });
});

it("review mode pushes nothing and never asks for the token's permission", async () => {
  const p = await plan({ mode: 'review' }, { repoPermissions: { admin: true, push: true, pull: true } });
  expect(p).toMatchObject({ canPush: false, reason: 'mode is "review"', remote: 'origin', asked: [] });
});

it("a fork PR's pull_request token is read-only: nothing is pushed, whatever the repository grants", async () => {
  const p = await plan({ meta: forkMeta(true), fork: true, allowForkFixes: true, env: FORK_PR });
  expect(p.canPush).toBe(false);
  expect(p.readOnlyToken).toMatch(/pull_request for a PR from the fork Codertocat\/demo-repo/);
  expect(p.reason).toBe(`the token is read-only: ${p.readOnlyToken}`);
  // The event alone decides: the token's permission on the base repository is not asked.
  expect(p.asked).not.toContain('/repos/octo-org/demo-repo');
});

it('a fork PR without allow-fork-fixes is review-only, with no URL to push to', async () => {
  const p = await plan({ meta: forkMeta(true), fork: true, env: FORK_TARGET });
  expect(p.canPush).toBe(false);
  expect(p.reason).toMatch(/the PR comes from a fork \(Codertocat\/demo-repo\); set allow-fork-fixes/);
  expect(p.remote).toBe('no-fork-url');
});

it("with allow-fork-fixes, a fork PR's fixes go to the fork's URL on origin's server", async () => {
  const perms = { repoPermissions: { admin: false, push: true, pull: true } };
  const p = await plan({ meta: forkMeta(true), fork: true, allowForkFixes: true, env: FORK_TARGET }, perms);
  expect(p).toMatchObject({ canPush: true, reason: null, remote: 'https://github.com/Codertocat/demo-repo.git' });
  // The fork's permission is asked too: the fake does not know the fork, like a token not installed there.
  expect(p.asked).toEqual(['/repos/octo-org/demo-repo', '/repos/Codertocat/demo-repo']);
});

it('a fork whose author does not allow edits by maintainers cannot get the fix', async () => {
  const perms = { repoPermissions: { admin: false, push: true, pull: true } };
  const p = await plan({ meta: forkMeta(false), fork: true, allowForkFixes: true, env: FORK_TARGET }, perms);
  expect(p.canPush).toBe(false);
  expect(p.reason).toBe(
    'the token cannot push to the fork Codertocat/demo-repo, and the author does not allow edits by maintainers',
  );
});
