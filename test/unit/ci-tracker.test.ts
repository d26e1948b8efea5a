// The run's view of its PR's CI, through the real Octokit client against the fake GitHub's CI:
// the listed checks of each head become a round, a fix attempt is counted per check across
// rounds (seeded from earlier runs), the count ends when the check passes on a head the loop
// pushed, and a refused or failed read leaves the run going without a verdict.
import { afterEach, expect, it } from 'vitest';
import { createCiChecks, type CiChecksSetup } from '../../src/ci/tracker.js';
import { createClient } from '../../src/github/client.js';
import { startFakeGitHub, type FakeCiJob, type FakeGitHub } from '../fakes/github/index.js';

const REPO = { owner: 'octo-org', repo: 'demo-repo' };
const [RED, RED2, GREEN, OTHER] = ['a', 'b', 'c', 'd'].map((c) => c.repeat(40)) as [string, string, string, string];
const CI = '.github/workflows/ci.yml';
const failing: FakeCiJob = {
  workflow: CI,
  job: 'test',
  conclusion: 'failure',
  log: 'npm test\nExpected 5, got -1 ghs_x',
};
const passing: FakeCiJob = { workflow: CI, job: 'test', conclusion: 'success' };

let fake: FakeGitHub | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

/** A repository whose CI fails `test` on RED and RED2 and passes it on GREEN. */
async function tracker(over: Partial<CiChecksSetup> = {}) {
  const jobs: Record<string, FakeCiJob[]> = { [RED]: [failing], [RED2]: [failing], [GREEN]: [passing], [OTHER]: [] };
  fake = await startFakeGitHub({ owner: REPO.owner, repo: REPO.repo, ci: (sha) => jobs[sha] ?? [] });
  for (const sha of Object.keys(jobs)) await fake.state.ci.trigger(sha, 'feature', 'pull_request');
  const octokit = createClient({ token: 't', baseUrl: fake.url, log: () => undefined, retryAfterBaseValue: 1 });
  const out = { logs: [] as string[], warnings: [] as string[] };
  const ci = createCiChecks({
    octokit,
    repo: REPO,
    wanted: ['ci.yml'],
    timeoutMs: 2_000,
    pollMs: 20,
    maxAttempts: 2,
    ownRunId: null,
    seed: {},
    redact: (t) => t.replaceAll('ghs_x', '***'),
    log: (l) => out.logs.push(l),
    warn: (l) => out.warnings.push(l),
    ...over,
  });
  return { ci, ...out };
}

it('waits for nothing, and asks GitHub nothing, when no check is listed', async () => {
  const { ci } = await tracker({ wanted: [] });
  fake!.clearRequests();
  expect(await ci.check(RED, false)).toBeNull();
  expect(fake!.requests).toEqual([]);
});

it('a failing check becomes a finding with its redacted job log, and the round is logged', async () => {
  const { ci, logs } = await tracker();
  const round = (await ci.check(RED, false))!;
  expect(round.sha).toBe(RED);
  expect(round.findings.map((f) => f.id)).toEqual(['CI-ci-test']);
  expect(round.findings[0]!.description).toContain('Expected 5, got -1 ***');
  expect(round.findings[0]!.description).not.toContain('ghs_x');
  expect(logs.at(-1)).toBe(`checks on ${RED.slice(0, 7)}: 0 passed, 1 failing (CI-ci-test)`);
});

it('counts each pushed fix attempt per check and escalates the check once the budget is used', async () => {
  const { ci } = await tracker({ seed: { 'CI-ci-test': 1 } });
  expect((await ci.check(RED, false))!.findings.map((f) => f.id)).toEqual(['CI-ci-test']);
  ci.attempted(['CI-ci-test']);
  expect(ci.attempts()).toEqual({ 'CI-ci-test': 2 });
  const next = (await ci.check(RED2, true))!;
  expect(next.findings).toEqual([]);
  expect(next.escalated.map((e) => [e.id, e.attempts])).toEqual([['CI-ci-test', 2]]);
  expect(next.escalated[0]!.logTail).toContain('Expected 5, got -1 ***');
});

it('a pass on a head the loop pushed ends the count; a pass on a head it did not push keeps it', async () => {
  const { ci } = await tracker({ seed: { 'CI-ci-test': 1, 'CI-ci-lint': 1 } });
  await ci.check(GREEN, false);
  expect(ci.attempts()).toEqual({ 'CI-ci-test': 1, 'CI-ci-lint': 1 });
  const round = (await ci.check(GREEN, true))!;
  expect(round.passed).toEqual([{ name: 'test', workflow: CI }]);
  // Only the check that passed starts again; the other one's count stands.
  expect(ci.attempts()).toEqual({ 'CI-ci-lint': 1 });
});

it('a check that never reported by the time limit is waiting, not failing', async () => {
  const { ci, logs } = await tracker({ timeoutMs: 200 });
  const round = (await ci.check(OTHER, false))!;
  expect(round.waiting).toEqual(['ci.yml']);
  expect(round.findings).toEqual([]);
  expect(logs.at(-1)).toBe(`checks on ${OTHER.slice(0, 7)}: 0 passed, 0 failing, 1 not finished`);
});

it('checks the token may not read: warned with the permissions it needs, and no verdict', async () => {
  const { ci, warnings } = await tracker();
  const refusal = { message: 'Resource not accessible by integration' };
  fake!.failNext({ method: 'GET', path: /\/check-runs$/, status: 403, body: refusal });
  const round = (await ci.check(RED, false))!;
  expect(round).toMatchObject({ sha: RED, findings: [], escalated: [], waiting: ['ci.yml'] });
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(`could not read the checks of ${RED.slice(0, 7)}`);
  expect(warnings[0]).toContain('checks: read and actions: read');
});

it('a job log that cannot be read still gives the finding, saying why the log is missing', async () => {
  const { ci } = await tracker();
  fake!.failNext({ method: 'GET', path: /\/logs$/, status: 403, body: { message: 'Must have admin rights' } });
  const round = (await ci.check(RED, false))!;
  expect(round.findings.map((f) => f.id)).toEqual(['CI-ci-test']);
  expect(round.findings[0]!.description).toContain('(its log could not be read:');
});
