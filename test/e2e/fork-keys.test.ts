// A fork PR's pull_request run gets no secrets: each `${{ secrets.X }}` is an empty string
// ("With the exception of GITHUB_TOKEN, secrets are not passed to the runner when a workflow is
// triggered from a forked repository": docs.github.com, "Using secrets in GitHub Actions"). With
// the REAL Claude Code on PATH and the fake model server behind it: a reviewer whose key is empty
// is known before any call and never started; with no reviewer left the run says so in the first
// line of the job summary and ends skipped (a fail-on gate stays shut); a key the provider refuses
// is read as such, so the fallback answers and the CLI is not started again for the fixer.
import path from 'node:path';
import { expect, it } from 'vitest';
import { cachedCliBin } from '../agents/cli-cache.js';
import type { ModelRequest, Reply } from '../fakes/model-server/index.js';
import { FORK, forkEvent } from './fork-event.js';
import { createWorld, type World } from './harness.js';
import { panelWorld } from './panel-world.js';
import { plantedBugReview } from './real-cli-panel.js';
import { BUG_FINDING, PLANTED_BUG_RULES } from './scenarios.js';

const cli = panelWorld((req: ModelRequest): Reply => plantedBugReview(req.transcript));

const FIRST_LINE =
  '**pr-review-loop reviewed nothing:** No reviewer has a key: ANTHROPIC_API_KEY is set but empty. ' +
  'GitHub withholds secrets from `pull_request` runs for pull requests from forks';

/** Claude Code on PATH, pointed at the fake model server, with `key` as its API key. */
async function claudeEnv(key: string): Promise<Record<string, string>> {
  const bin = await cachedCliBin('claude');
  return {
    PATH: [path.dirname(bin), process.env.PATH].join(path.delimiter),
    ANTHROPIC_BASE_URL: cli.models().url,
    ANTHROPIC_API_KEY: key,
    CLAUDE_CODE_MAX_RETRIES: '0',
  };
}

/** A fork PR on pull_request: the read-only token GitHub gives it, and its event. */
async function forkRun(world: World, inputs: Record<string, string>) {
  return world.run({
    inputs: { verify: 'npm test', ...inputs },
    extraEnv: { ...(await claudeEnv('')), GITHUB_EVENT_PATH: await forkEvent(world) },
  });
}

const forkWorld = () =>
  createWorld({ pull: { headRepoFullName: FORK }, github: { token: { kind: 'actions', readOnly: true } } });

it('an empty key on a fork PR: nothing started, the first line of the summary says why, skipped and green without fail-on', async () => {
  const world = await forkWorld();
  const before = cli.models().requests.length;
  const r = await forkRun(world, { reviewers: 'claude:claude-sonnet-4-5', 'fail-on': 'none' });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.outputs.status).toBe('skipped');
  expect(r.outputs.rounds).toBe('0');
  expect(r.outputs.consensus).toBe('');
  expect(r.summary.split('\n')[0]).toContain(FIRST_LINE);
  expect(r.summary.split('\n')[0]).toContain('`pull_request_target` workflow');
  expect(r.summary.split('\n')[0]).toContain('tokens-and-forks.md');
  expect(r.stdout).toMatch(/^::warning::pr-review-loop reviewed nothing: No reviewer has a key/m);
  // Known before any call: Claude Code was never started, nothing reached the model server.
  expect(cli.models().requests.length).toBe(before);
  expect(r.stdout).not.toContain('Not logged in');
  expect(world.github.writes()).toEqual([]);
});

it('an empty key on a fork PR under fail-on: the gate does not pass without a review', async () => {
  const world = await forkWorld();
  const r = await forkRun(world, { reviewers: 'claude:claude-sonnet-4-5', 'fail-on': 'P1' });
  expect(r.code).toBe(1);
  expect(r.outputs.status).toBe('skipped');
  expect(r.summary.split('\n')[0]).toContain(FIRST_LINE);
  const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error::'));
  expect(errors).toEqual([
    expect.stringMatching(/^::error::fail-on P1: nothing was reviewed, so the gate cannot pass/),
  ]);
});

it('an empty key on a fork PR: the fallback and the other reviewers still review', async () => {
  const world = await forkWorld();
  const r = await world.run({
    rules: PLANTED_BUG_RULES,
    inputs: {
      reviewers: 'claude:claude-sonnet-4-5 || command:scripted-model\nclaude:claude-opus-4-1',
      verify: 'npm test',
    },
    extraEnv: { ...(await claudeEnv('')), GITHUB_EVENT_PATH: await forkEvent(world) },
  });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.outputs.status).toBe('review-only');
  expect(r.outputs.p1).toBe('1');
  expect(r.summary).not.toContain('reviewed nothing');
  const row = (name: string) => r.summary.split('\n').find((l) => l.startsWith(`| ${name} `))!;
  expect(row('reviewer-1')).toContain('fallback, asked after `claude:claude-sonnet-4-5`');
  expect(row('reviewer-1')).toMatch(/: not authenticated \(was not started: ANTHROPIC_API_KEY is set but empty/);
  expect(row('reviewer-2')).toMatch(/❌ claude agent \(reviewer-2, model claude-opus-4-1\) was not started/);
  expect(r.summary).toContain(BUG_FINDING.title);
});

it('a key the provider refuses: read as not authenticated, the fallback answers, and Claude Code is not started again', async () => {
  const world = await createWorld();
  const before = cli.models().requests.length;
  const fallback = 'claude:claude-sonnet-4-5 || command:scripted-model';
  const r = await world.run({
    rules: PLANTED_BUG_RULES,
    inputs: { reviewers: fallback, fixer: fallback, verify: 'npm test', 'max-rounds': '1' },
    extraEnv: await claudeEnv('sk-revoked-key'),
  });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.outputs.status).toBe('max-rounds');
  const [review, fix] = world.github.comments(7).map((c) => c.body);
  const row = (body: string, name: string) => body.split('\n').find((l) => l.startsWith(`| ${name} `))!;
  expect(row(review!, 'reviewer-1')).toMatch(/: not authenticated \(.*(Invalid API key|invalid api key|401)/);
  expect(row(fix!, 'fixer')).toContain('an earlier claude call of this run could not authenticate');
  expect(fix).toContain('Fixes pushed');
  // One refused request, from the reviewer's call; the fixer's Claude Code was never started.
  const asked = cli.models().requests.slice(before);
  expect(asked.map((q) => q.reply)).toEqual([expect.objectContaining({ error: 401 })]);
});

it('a key the provider refuses for every reviewer: nothing reviewed, said first; the fail-on gate fails', async () => {
  const world = await createWorld();
  const r = await world.run({
    rules: PLANTED_BUG_RULES,
    inputs: { reviewers: 'claude:claude-sonnet-4-5', verify: 'npm test', 'fail-on': 'P0' },
    extraEnv: await claudeEnv('sk-revoked-key'),
  });
  expect(r.code).toBe(1);
  expect(r.outputs.status).toBe('skipped');
  expect(r.outputs.consensus).toBe('');
  const first = r.summary.split('\n')[0]!;
  expect(first).toMatch(/^\*\*pr-review-loop reviewed nothing:\*\* No reviewer could authenticate \(reviewer-1: /);
  // A PR of this repository: the key is the thing to check, not the fork workflow.
  expect(first).toContain("Set each reviewer's key as a secret of the repository");
  expect(r.stdout).toMatch(/^::error::fail-on P0: nothing was reviewed, so the gate cannot pass/m);
  // The report on the PR does not read as an approval.
  const [report] = world.github.comments(7).map((c) => c.body);
  expect(report).toContain('## 🔍 Review round 1 of 3 · ⚪ not reviewed: no reviewer answered');
  expect(world.agentCalls().some((c) => c.role === 'fixer')).toBe(false);
});
