// Waiting for a head's checks (docs/ci.md) through the real Octokit client against the fake's CI:
// what counts as done, failing, flaky or without a verdict, and the job log behind the redirect.
import { afterEach, expect, it } from 'vitest';
import { jobLog } from '../../src/ci/checks-api.js';
import { waitForChecks } from '../../src/ci/wait.js';
import { createClient } from '../../src/github/client.js';
import { startFakeGitHub, type FakeCiJob, type FakeGitHub } from '../fakes/github/index.js';

const SHA = 'c'.repeat(40);
const repo = { owner: 'octo-org', repo: 'demo-repo' };
let fake: FakeGitHub;
afterEach(() => fake?.close());

async function setup(jobs: FakeCiJob[]) {
  fake = await startFakeGitHub({ owner: 'octo-org', repo: 'demo-repo', ci: () => jobs });
  await fake.state.ci.trigger(SHA, 'feature', 'pull_request');
  const octokit = createClient({ token: 't', baseUrl: fake.url, log: () => undefined, retryAfterBaseValue: 5 });
  const wait = (wanted: string[], timeoutMs = 2_000) =>
    waitForChecks({ octokit, repo, sha: SHA, wanted, ownRunId: null, timeoutMs, pollMs: 20, log: () => undefined });
  return { octokit, wait };
}

it('tells passed, failing and flaky checks apart, by workflow file or check name', async () => {
  const { octokit, wait } = await setup([
    { workflow: '.github/workflows/ci.yml', job: 'test', conclusion: 'failure', log: 'boom\nexpected 2' },
    { workflow: '.github/workflows/ci.yml', job: 'build', conclusion: 'success' },
    { workflow: '.github/workflows/e2e.yml', job: 'e2e', conclusion: 'failure', earlier: ['success'] },
  ]);
  const head = await wait(['ci.yml', 'e2e']);
  expect(head.waiting).toEqual([]);
  const by = Object.fromEntries(head.checks.map((c) => [c.name, [c.passed, c.flaky, c.workflow]]));
  expect(by).toEqual({
    test: [false, false, '.github/workflows/ci.yml'],
    build: [true, false, '.github/workflows/ci.yml'],
    e2e: [false, true, '.github/workflows/e2e.yml'],
  });
  const failing = head.checks.find((c) => c.name === 'test')!;
  expect(await jobLog(octokit, repo, failing.jobId!)).toBe('boom\nexpected 2');
});

it('waits while a check runs, and gives a cancelled run no verdict', async () => {
  const { wait } = await setup([
    { workflow: '.github/workflows/ci.yml', job: 'test', conclusion: 'success', pendingPolls: 3 },
    { workflow: '.github/workflows/slow.yml', job: 'slow', conclusion: 'cancelled' },
  ]);
  const head = await wait(['ci.yml', 'slow.yml', 'never.yml'], 1_000);
  // ci.yml finished after a few polls; a cancelled run and a workflow that never ran stay open.
  expect(head.checks.map((c) => [c.name, c.passed])).toEqual([['test', true]]);
  expect(head.waiting).toEqual(['slow.yml', 'never.yml']);
});
