// Every REST answer of the fake GitHub, checked against GitHub's official OpenAPI
// description (the committed extract in test/fixtures/openapi/subset.json).
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGitHub } from '../fakes/github/index.js';
import type { FakeGitHub } from '../fakes/github/index.js';
import { createOrigin } from './git-origin.js';
import type { Origin } from './git-origin.js';

interface Subset {
  source: { package: string; version: string };
  operations: Record<string, { responses: Record<string, { schema: unknown }> }>;
  components: unknown;
}
const subset = JSON.parse(readFileSync(new URL('../fixtures/openapi/subset.json', import.meta.url), 'utf8')) as Subset;

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('uri-template', true);
ajv.addSchema({ $id: 'subset.json', components: subset.components });

/** Component refs point into the registered subset document. */
const retarget = (node: unknown): unknown =>
  JSON.parse(JSON.stringify(node).replaceAll('"#/components/', '"subset.json#/components/'));
const compiled = new Map<string, ValidateFunction>();
function validatorFor(op: string, status: number): ValidateFunction {
  const key = `${op} ${status}`;
  const schema = subset.operations[op]?.responses[String(status)]?.schema;
  if (!schema) throw new Error(`no response schema for ${key} in subset.json`);
  if (!compiled.has(key)) compiled.set(key, ajv.compile(retarget(schema) as object));
  return compiled.get(key)!;
}

function expectValid(op: string, status: number, body: unknown): void {
  const validate = validatorFor(op, status);
  const ok = validate(body);
  expect(
    ok ? [] : ajv.errorsText(validate.errors, { separator: '\n' }).split('\n').slice(0, 10),
    `${op} ${status}`,
  ).toEqual([]);
}

let origin: Origin;
let fake: FakeGitHub;
const REPO = '/repos/octo-org/demo-repo';

async function call(
  method: string,
  path: string,
  body?: unknown,
  accept = 'application/vnd.github+json',
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(fake.url + path, {
    method,
    headers: { authorization: 'token t0k3n', accept, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, headers: res.headers, body: type.includes('json') ? JSON.parse(text) : text };
}

beforeAll(async () => {
  origin = await createOrigin(
    { 'src/math.js': 'export const add = (a, b) => a + b;\n', 'README.md': '# demo\n', 'docs/old.md': 'old\n' },
    { 'src/math.js': 'export const add = (a, b) => a - b;\n', 'src/new.js': 'export {};\n', 'docs/old.md': null },
  );
  fake = await startFakeGitHub({
    owner: 'octo-org',
    repo: 'demo-repo',
    originDir: origin.originDir,
    collaborators: { maintainer: 'maintain' },
    repoPermissions: { admin: false, push: true, pull: true },
    workflows: ['ci.yml'],
    pulls: [
      {
        number: 7,
        title: 'Planted bug',
        body: null,
        user: 'Codertocat',
        headRef: 'feature/planted-bug',
        reviews: [
          { login: 'maintainer', state: 'CHANGES_REQUESTED', body: 'no' },
          { login: 'maintainer', state: 'PENDING' },
        ],
        comments: [
          { login: 'someone', body: 'hello' },
          { login: 'dependabot[bot]', type: 'Bot', body: 'bump' },
        ],
      },
      {
        number: 8,
        title: 'Fork',
        user: 'stranger',
        headRef: 'feature/planted-bug',
        headRepoFullName: 'stranger/demo-repo',
        merged: true,
      },
    ],
  });
});

afterAll(async () => {
  await fake?.close();
  await origin?.cleanup();
});

describe('fake GitHub REST answers match the OpenAPI description', () => {
  it('records which @octokit/openapi release the extract came from', () => {
    expect(subset.source.package).toBe('@octokit/openapi');
    expect(subset.source.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('GET /repos/{owner}/{repo}, with and without permissions', async () => {
    const res = await call('GET', REPO);
    expect(res.status).toBe(200);
    expectValid('GET /repos/{owner}/{repo}', 200, res.body);
    expect((res.body as { permissions: unknown }).permissions).toMatchObject({ push: true, admin: false });
    const other = await startFakeGitHub({ owner: 'me', repo: 'r', ownerType: 'User' });
    try {
      const bare = await (await fetch(`${other.url}/repos/me/r`)).json();
      expectValid('GET /repos/{owner}/{repo}', 200, bare);
      expect(bare).not.toHaveProperty('permissions');
    } finally {
      await other.close();
    }
  });

  it('GET pulls/{n}: open same-repo PR and merged fork PR; 404 for an unknown PR', async () => {
    for (const n of [7, 8]) {
      const res = await call('GET', `${REPO}/pulls/${n}`);
      expectValid('GET /repos/{owner}/{repo}/pulls/{pull_number}', 200, res.body);
    }
    const missing = await call('GET', `${REPO}/pulls/99`);
    expect(missing.status).toBe(404);
    expectValid('GET /repos/{owner}/{repo}/pulls/{pull_number}', 404, missing.body);
  });

  it('GET pulls/{n}/files and /reviews (paginated lists)', async () => {
    const files = await call('GET', `${REPO}/pulls/7/files?per_page=2`);
    expectValid('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', 200, files.body);
    expect(files.headers.get('link')).toContain('rel="next"');
    const reviews = await call('GET', `${REPO}/pulls/7/reviews`);
    expectValid('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', 200, reviews.body);
    expect(reviews.body).toHaveLength(2);
  });

  it('issue comments: list, create (201), and the 422 shapes', async () => {
    const op = '/repos/{owner}/{repo}/issues/{issue_number}/comments';
    const list = await call('GET', `${REPO}/issues/7/comments`);
    expectValid(`GET ${op}`, 200, list.body);
    const created = await call('POST', `${REPO}/issues/7/comments`, { body: 'report' });
    expect(created.status).toBe(201);
    expectValid(`POST ${op}`, 201, created.body);
    for (const bad of [{}, { body: '  ' }, { body: 'x'.repeat(65537) }]) {
      const res = await call('POST', `${REPO}/issues/7/comments`, bad);
      expect(res.status).toBe(422);
      expectValid(`POST ${op}`, 422, res.body);
    }
    const gone = await call('GET', `${REPO}/issues/99/comments`);
    expectValid(`GET ${op}`, 404, gone.body);
  });

  it('collaborator permission for a maintainer, the owner and a stranger', async () => {
    const op = 'GET /repos/{owner}/{repo}/collaborators/{username}/permission';
    for (const [login, permission, role] of [
      ['maintainer', 'write', 'maintain'],
      ['octo-org', 'admin', 'admin'],
      ['nobody', 'none', 'none'],
    ]) {
      const res = await call('GET', `${REPO}/collaborators/${login}/permission`);
      expectValid(op, 200, res.body);
      expect(res.body).toMatchObject({ permission, role_name: role });
    }
  });

  it('contents: a file, a directory, and a missing path', async () => {
    const op = 'GET /repos/{owner}/{repo}/contents/{path}';
    const file = await call('GET', `${REPO}/contents/src/math.js?ref=feature/planted-bug`);
    expectValid(op, 200, file.body);
    const content = (file.body as { content: string }).content;
    expect(Buffer.from(content, 'base64').toString()).toContain('a - b');
    const dir = await call('GET', `${REPO}/contents/src`);
    expectValid(op, 200, dir.body);
    const missing = await call('GET', `${REPO}/contents/nope.txt`);
    expect(missing.status).toBe(404);
    expectValid(op, 404, missing.body);
  });

  it('workflow dispatch: 204 without a body, 404 for an unknown workflow', async () => {
    const op = '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches';
    const ok = await call('POST', `${REPO}/actions/workflows/ci.yml/dispatches`, {
      ref: 'feature/planted-bug',
      inputs: { pr: '7' },
    });
    expect(ok.status).toBe(204);
    expect(ok.body).toBe('');
    expect(subset.operations[`POST ${op}`]?.responses['204']?.schema).toBeNull();
    const unknown = await call('POST', `${REPO}/actions/workflows/deploy.yml/dispatches`, { ref: 'main' });
    expect(unknown.status).toBe(404);
  });

  it('GET /user: 403 for an installation token, a private user for tokenLogin', async () => {
    const denied = await call('GET', '/user');
    expect(denied.status).toBe(403);
    expectValid('GET /user', 403, denied.body);
    const other = await startFakeGitHub({ owner: 'me', repo: 'r', tokenLogin: 'me' });
    try {
      const res = await fetch(`${other.url}/user`, { headers: { authorization: 'token x' } });
      expectValid('GET /user', 200, await res.json());
    } finally {
      await other.close();
    }
  });

  it('GET actions/runs/{run_id}: a run of the repository; 404 for an unknown run', async () => {
    const op = 'GET /repos/{owner}/{repo}/actions/runs/{run_id}';
    fake.state.addWorkflowRun({ id: 4242, path: '.github/workflows/review.yml', event: 'pull_request' });
    fake.state.addWorkflowRun({ id: 4243, path: '.github/workflows/review.yml' });
    const res = await call('GET', `${REPO}/actions/runs/4242`);
    expect(res.status).toBe(200);
    expectValid(op, 200, res.body);
    const run = res.body as { id: number; path: string; workflow_id: number; repository: { full_name: string } };
    expect(run).toMatchObject({
      id: 4242,
      path: '.github/workflows/review.yml',
      repository: { full_name: 'octo-org/demo-repo' },
    });
    const sibling = (await call('GET', `${REPO}/actions/runs/4243`)).body as { workflow_id: number };
    expect(sibling.workflow_id).toBe(run.workflow_id);
    const missing = await call('GET', `${REPO}/actions/runs/999999`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ message: 'Not Found' });
  });

  it('reviews with inline comments (200), a line outside the diff (422), replies (201, 404)', async () => {
    const op = 'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews';
    const comment = { path: 'src/math.js', line: 1, side: 'RIGHT', body: 'subtracts' };
    const ok = await call('POST', `${REPO}/pulls/7/reviews`, { event: 'COMMENT', body: '', comments: [comment] });
    expect(ok.status).toBe(200);
    expectValid(op, 200, ok.body);
    expect(ok.body).toMatchObject({ state: 'COMMENTED', user: { login: 'github-actions[bot]' } });
    // A line outside every hunk refuses the whole review: no thread is added.
    const threads = fake.state.threads(7).length;
    const outside = await call('POST', `${REPO}/pulls/7/reviews`, {
      event: 'COMMENT',
      comments: [comment, { ...comment, line: 9 }],
    });
    expect(outside.status).toBe(422);
    expectValid(op, 422, outside.body);
    expect(outside.body).toMatchObject({ message: 'Unprocessable Entity', errors: ['Line could not be resolved'] });
    expect(fake.state.threads(7)).toHaveLength(threads);
    const thread = fake.state.threads(7).at(-1)!;
    const replyOp = 'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies';
    const reply = await call('POST', `${REPO}/pulls/7/comments/${thread.comments[0]!.databaseId}/replies`, {
      body: 'Fixed in abc',
    });
    expect(reply.status).toBe(201);
    expectValid(replyOp, 201, reply.body);
    expect(reply.body).toMatchObject({ in_reply_to_id: thread.comments[0]!.databaseId, body: 'Fixed in abc' });
    const missing = await call('POST', `${REPO}/pulls/7/comments/1/replies`, { body: 'x' });
    expect(missing.status).toBe(404);
    expectValid(replyOp, 404, missing.body);
  });

  it('labels: add (a new one is created), remove, and 404 for one the PR does not carry', async () => {
    const add = 'POST /repos/{owner}/{repo}/issues/{issue_number}/labels';
    const remove = 'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}';
    const added = await call('POST', `${REPO}/issues/7/labels`, { labels: ['review-loop: converged'] });
    expect(added.status).toBe(200);
    expectValid(add, 200, added.body);
    expect(added.body).toMatchObject([{ name: 'review-loop: converged', color: 'ededed' }]);
    expectValid('GET /repos/{owner}/{repo}/pulls/{pull_number}', 200, (await call('GET', `${REPO}/pulls/7`)).body);
    const removed = await call('DELETE', `${REPO}/issues/7/labels/${encodeURIComponent('review-loop: converged')}`);
    expect(removed.status).toBe(200);
    expectValid(remove, 200, removed.body);
    const again = await call('DELETE', `${REPO}/issues/7/labels/${encodeURIComponent('review-loop: converged')}`);
    expect(again.status).toBe(404);
    expectValid(remove, 404, again.body);
    expect(again.body).toMatchObject({ message: 'Label does not exist' });
  });

  it('CI: check runs of a commit (latest and all), its workflow runs, and a job log behind a redirect', async () => {
    const ci = await startFakeGitHub({
      owner: 'octo-org',
      repo: 'demo-repo',
      originDir: origin.originDir,
      pulls: [{ number: 7, title: 'T', user: 'Codertocat', headRef: 'feature/planted-bug' }],
      ci: () => [
        {
          workflow: '.github/workflows/ci.yml',
          job: 'test',
          conclusion: 'failure',
          log: 'FAIL add\nexpected 2',
          earlier: ['success'],
        },
        { workflow: '.github/workflows/lint.yml', job: 'lint', conclusion: 'success' },
      ],
    });
    try {
      const get = async (path: string) => {
        const res = await fetch(ci.url + path, {
          headers: { authorization: 'token t', accept: 'application/vnd.github+json' },
        });
        return { status: res.status, body: (await res.json()) as any, headers: res.headers };
      };
      const pull = await get(`${REPO}/pulls/7`);
      const sha = pull.body.head.sha as string;
      const latest = await get(`${REPO}/commits/${sha}/check-runs`);
      expectValid('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', 200, latest.body);
      expect(latest.body.check_runs.map((c: any) => [c.name, c.conclusion])).toEqual([
        ['test', 'failure'],
        ['lint', 'success'],
      ]);
      const all = await get(`${REPO}/commits/${sha}/check-runs?filter=all`);
      expect(all.body.check_runs.map((c: any) => [c.name, c.conclusion])).toEqual([
        ['test', 'success'],
        ['test', 'failure'],
        ['lint', 'success'],
      ]);
      const runs = await get(`${REPO}/actions/runs?head_sha=${sha}`);
      expectValid('GET /repos/{owner}/{repo}/actions/runs', 200, runs.body);
      expect(runs.body.workflow_runs.map((r: any) => r.path).sort()).toEqual([
        '.github/workflows/ci.yml',
        '.github/workflows/lint.yml',
      ]);
      const job = latest.body.check_runs[0].html_url.split('/job/')[1];
      const redirect = await fetch(`${ci.url}${REPO}/actions/jobs/${job}/logs`, {
        redirect: 'manual',
        headers: { authorization: 'token t' },
      });
      expect(redirect.status).toBe(302);
      const text = await (await fetch(redirect.headers.get('location')!)).text();
      expect(text).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z FAIL add\n\S+ expected 2$/);
      // No CI for a commit nobody pushed with a token that starts workflows.
      expect((await get(`${REPO}/commits/${'0'.repeat(40)}/check-runs`)).body).toEqual({
        total_count: 0,
        check_runs: [],
      });
    } finally {
      await ci.close();
    }
  });

  it('unknown routes answer 404 in the basic-error shape', async () => {
    const res = await call('GET', '/repos/octo-org/demo-repo/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: 'Not Found' });
    expectValid('GET /repos/{owner}/{repo}', 404, res.body);
  });

  it('the validator itself rejects a PR missing required fields', async () => {
    const res = await call('GET', `${REPO}/pulls/7`);
    const broken = { ...(res.body as object), head: undefined, user: { login: 'x' } };
    expect(validatorFor('GET /repos/{owner}/{repo}/pulls/{pull_number}', 200)(JSON.parse(JSON.stringify(broken)))).toBe(
      false,
    );
  });
});
