// Which run wrote a hidden state: GET /repos/{o}/{r}/actions/runs/{run_id} against the fake GitHub.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/github/client.js';
import { createRunCheck } from '../../src/github/workflow-runs.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github/index.js';

const REPO = { owner: 'octo-org', repo: 'demo-repo' };
let fake: FakeGitHub;

beforeEach(async () => {
  fake = await startFakeGitHub({
    ...REPO,
    workflowRuns: [
      { id: 100, path: '.github/workflows/review.yml' },
      { id: 101, path: '.github/workflows/review.yml' },
      { id: 200, path: '.github/workflows/ci.yml' },
    ],
  });
});
afterEach(async () => {
  await fake.close();
});

const client = () =>
  createClient({ token: 'ghs_unitTestToken', baseUrl: fake.url, log: () => undefined, retryAfterBaseValue: 1 });
const lookups = () =>
  fake.requests.filter((q) => q.method === 'GET' && q.path.includes('/actions/runs/')).map((q) => q.path.split('/')[6]);

describe('createRunCheck', () => {
  it('accepts a run of the same workflow as this run', async () => {
    const check = createRunCheck(client(), REPO, '101');
    expect(await check('100')).toBeNull();
    expect(await check('101')).toBeNull();
  });

  it('refuses a run of another workflow, naming it', async () => {
    const reason = await createRunCheck(client(), REPO, '101')('200');
    expect(reason).toBe('run 200 is a run of another workflow (.github/workflows/ci.yml)');
  });

  it('refuses a run GitHub does not know', async () => {
    const reason = await createRunCheck(client(), REPO, '101')('999');
    expect(reason).toMatch(/^run 999 was not found in this repository \(404\)/);
  });

  it('refuses an id that is not a run id, without asking', async () => {
    const check = createRunCheck(client(), REPO, '101');
    for (const bad of ['abc', '-1', '1e3', '0', '../../pulls/7', '9'.repeat(30)]) {
      expect(await check(bad)).toMatch(/is not a run id/);
    }
    expect(lookups()).toEqual([]);
  });

  it('asks once for this run and once per distinct run id', async () => {
    const check = createRunCheck(client(), REPO, '101');
    await Promise.all([check('100'), check('100'), check('200')]);
    await check('100');
    expect(lookups().sort()).toEqual(['100', '101', '200']);
  });

  it('trusts nothing when this run itself cannot be read', async () => {
    expect(await createRunCheck(client(), REPO, '555')('100')).toMatch(/this run \(555\) was not found/);
    expect(await createRunCheck(client(), REPO, null)('100')).toMatch(/no GITHUB_RUN_ID/);
  });

  it('trusts nothing when GitHub refuses the lookup (403: no actions: read), and says what to grant', async () => {
    const body = { message: 'Resource not accessible by integration', status: '403' };
    fake.failNext({ method: 'GET', path: /\/actions\/runs\//, status: 403, times: 2, body });
    const reason = await createRunCheck(client(), REPO, '101')('100');
    expect(reason).toMatch(/refused.*\(403\)/);
    expect(reason).toContain('actions: read');
  });
});
