// The fake's activity log and single commits (from which the action tells the head a
// `/review-loop` comment's author saw), checked against GitHub's OpenAPI description
// (test/fixtures/openapi/subset.json) and against what GitHub does.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github/index.js';
import { secondBefore } from '../fakes/github/routes/commits.js';
import { createOrigin, type Origin } from './git-origin.js';

interface Subset {
  operations: Record<string, { responses: Record<string, { schema: unknown }> }>;
  components: unknown;
}
const subset = JSON.parse(readFileSync(new URL('../fixtures/openapi/subset.json', import.meta.url), 'utf8')) as Subset;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
ajv.addSchema({ $id: 'subset.json', components: nullableAsNull(subset.components) });

/**
 * OpenAPI 3.0's `nullable: true` beside `oneOf` (no `type`), as the commit's `author` has it,
 * means "or null"; JSON Schema (ajv) has no such keyword there, so it is spelled out.
 */
function nullableAsNull(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableAsNull);
  if (!node || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const inner = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, nullableAsNull(v)]));
  if (nullable === true && !('type' in rest)) return { anyOf: [inner, { type: 'null' }] };
  return nullable === undefined ? inner : { ...inner, nullable };
}

function expectValid(op: string, status: number, body: unknown): void {
  const schema = subset.operations[op]?.responses[String(status)]?.schema;
  expect(schema, `${op} ${status} in subset.json`).toBeTruthy();
  const retargeted = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"subset.json#/components/'));
  const validate = ajv.compile(nullableAsNull(retargeted) as object);
  const ok = validate(body);
  expect(ok ? [] : ajv.errorsText(validate.errors, { separator: '\n' }).split('\n'), `${op} ${status}`).toEqual([]);
}

const REPO = '/repos/octo-org/demo-repo';
const HEAD_REF = 'refs/heads/feature/planted-bug';
let origin: Origin;
let fake: FakeGitHub;

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const headers = { authorization: 'token t0k3n', accept: 'application/vnd.github+json' };
  const res = await fetch(fake.url + path, { headers });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  origin = await createOrigin({ 'a.js': 'a\n' }, { 'a.js': 'b\n' });
  fake = await startFakeGitHub({
    owner: 'octo-org',
    repo: 'demo-repo',
    originDir: origin.originDir,
    pulls: [{ number: 7, title: 'PR', user: 'dev', headRef: 'feature/planted-bug' }],
  });
});
afterAll(async () => {
  await fake?.close();
  await origin?.cleanup();
});

type Activity = { after: string; before: string; ref: string; timestamp: string; activity_type: string };

describe('GET /repos/{owner}/{repo}/activity', () => {
  const op = 'GET /repos/{owner}/{repo}/activity';

  it('shows branches that existed when the fake started as created just before, newest first', async () => {
    const res = await get(`${REPO}/activity?ref=feature/planted-bug`);
    expect(res.status).toBe(200);
    expectValid(op, 200, res.body);
    const timestamp = secondBefore(fake.state.startedAt);
    const created = { after: origin.headSha, activity_type: 'branch_creation', timestamp };
    expect(res.body).toMatchObject([{ ref: HEAD_REF, ...created }]);
  });

  it('logs a later push when it first sees the branch move, and keeps recorded ones in time order', async () => {
    const moved = await origin.push('feature/planted-bug', { 'a.js': 'c\n' });
    fake.state.recordPush({ ref: 'main', after: origin.baseSha, timestamp: '2001-01-01T00:00:00Z', actor: null });
    const res = await get(`${REPO}/activity?ref=${encodeURIComponent(HEAD_REF)}&per_page=1`);
    expectValid(op, 200, res.body);
    expect(res.body).toMatchObject([{ ref: HEAD_REF, before: origin.headSha, after: moved, activity_type: 'push' }]);
    const all = (await get(`${REPO}/activity?direction=asc`)).body as Activity[];
    expectValid(op, 200, all);
    expect(all.map((a) => a.timestamp)).toEqual([...all.map((a) => a.timestamp)].sort());
    expect(all[0]).toMatchObject({ ref: 'refs/heads/main', actor: null });
  });

  it('refuses an activity_type GitHub does not know', async () => {
    const res = await get(`${REPO}/activity?activity_type=merge`);
    expect(res.status).toBe(422);
    expectValid(op, 422, res.body);
  });
});

describe('GET /repos/{owner}/{repo}/commits/{ref}', () => {
  const op = 'GET /repos/{owner}/{repo}/commits/{ref}';

  it('answers a full sha, a short one and a branch with the commit and its git dates', async () => {
    for (const ref of [origin.baseSha, origin.baseSha.slice(0, 7), 'main']) {
      const res = await get(`${REPO}/commits/${ref}`);
      expect(res.status, ref).toBe(200);
      expectValid(op, 200, res.body);
      const commit = { message: 'Initial commit', committer: { name: 'Dev' } };
      expect(res.body).toMatchObject({ sha: origin.baseSha, commit });
      const date = (res.body as { commit: { committer: { date: string } } }).commit.committer.date;
      expect(date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
  });

  it('is checked by a validator that would notice a missing field', async () => {
    const { body } = await get(`${REPO}/commits/main`);
    const { sha: _sha, ...noSha } = body as Record<string, unknown>;
    const schema = subset.operations[op]!.responses['200']!.schema;
    const retargeted = JSON.parse(JSON.stringify(schema).replaceAll('"#/', '"subset.json#/'));
    const validate = ajv.compile(nullableAsNull(retargeted) as object);
    expect(validate(body)).toBe(true);
    expect(validate(noSha)).toBe(false);
  });

  it('answers 422 for a sha it cannot resolve to one commit, and 404 for an unknown branch', async () => {
    const unknown = await get(`${REPO}/commits/0000000`);
    expect(unknown.status).toBe(422);
    expectValid(op, 422, unknown.body);
    expect(unknown.body).toMatchObject({ message: 'No commit found for SHA: 0000000' });
    const branch = await get(`${REPO}/commits/no-such-branch`);
    expect(branch.status).toBe(404);
    expectValid(op, 404, branch.body);
  });
});
