// Which token the action runs with (docs/tokens-and-forks.md), end to end against the fake
// GitHub: the read-only GITHUB_TOKEN of a fork PR's pull_request job, a token refused on its
// first write, and a GitHub App's installation token, which GET /user refuses and whose
// comments are authored by `<slug>[bot]`.
import { afterEach, describe, expect, it } from 'vitest';
import { FORK, forkEvent } from './fork-event.js';
import { createWorld, type RunResult, type World } from './harness.js';
import { BUG_FINDING, PLANTED_BUG_RULES, reviewerAnswer } from './scenarios.js';

const PRT_DOCS = 'https://docs.github.com/en/actions/reference/security/securely-using-pull_request_target';
const REPORT_HEADING = '## 🔍 Review round 1 of';
const FINDS_BUG = [{ role: 'reviewer', answer: reviewerAnswer([BUG_FINDING]) }];
const APP = 'review-loop-app';

let world: World;
afterEach(async () => {
  await world.close();
});

const roles = () => world.agentCalls().map((c) => c.role);
const askedForUser = () => world.github.requests.some((q) => q.path === '/user');
/** The annotation @actions/core prints for the planted bug (file and line of the finding). */
const bugAnnotation = (r: RunResult) =>
  r.stdout.split('\n').find((l) => /^::error .*file=src\/math\.js,line=2::/.test(l));

describe('a fork PR on pull_request, with the read-only GITHUB_TOKEN GitHub gives it', () => {
  const forkWorld = () =>
    createWorld({ pull: { headRepoFullName: FORK }, github: { token: { kind: 'actions', readOnly: true } } });

  it('ends review-only and green: report in the job summary, findings as annotations, nothing written', async () => {
    world = await forkWorld();
    const r = await world.run({ rules: FINDS_BUG, extraEnv: { GITHUB_EVENT_PATH: await forkEvent(world) } });
    expect(r.code, r.stdout).toBe(0);
    expect(r.outputs.status).toBe('review-only');
    expect(r.outputs.p1).toBe('1');
    // Detected before anything was written: not one write request, not even a refused one.
    expect(world.github.writes()).toEqual([]);
    expect(world.github.comments(7)).toEqual([]);
    expect(r.summary).toContain(REPORT_HEADING);
    expect(r.summary).toContain(BUG_FINDING.title);
    expect(r.summary).toContain(BUG_FINDING.suggestion);
    expect(bugAnnotation(r)).toContain(BUG_FINDING.title);
    // The log says why, and how to get comments.
    expect(r.stdout).toMatch(/read-only/);
    expect(r.stdout).toContain('pull_request_target');
    expect(r.stdout).toContain(PRT_DOCS);
    expect(r.stdout).not.toContain('Resource not accessible by integration');
    expect(roles()).toEqual(['reviewer']);
    expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
    expect(askedForUser()).toBe(false);
  });

  it('fails for fail-on alone when a P1 remains under fail-on: P1', async () => {
    world = await forkWorld();
    const r = await world.run({
      rules: FINDS_BUG,
      inputs: { 'fail-on': 'P1' },
      extraEnv: { GITHUB_EVENT_PATH: await forkEvent(world) },
    });
    expect(r.code).toBe(1);
    expect(r.outputs.status).toBe('review-only');
    const failures = r.stdout.split('\n').filter((l) => l.startsWith('::error::'));
    expect(failures).toEqual([expect.stringMatching(/^::error::fail-on P1: findings at or above P1 remain/)]);
    expect(world.github.writes()).toEqual([]);
    expect(bugAnnotation(r)).toBeDefined();
  });
});

describe('a token GitHub refuses on the first write', () => {
  it('stops writing at the refusal: review-only and green, no fixer, no push, nothing after the 403', async () => {
    // A same-repository PR whose workflow gave the token no write access: nothing tells up
    // front, so the first comment is where GitHub refuses.
    world = await createWorld({ github: { token: { kind: 'actions', readOnly: true } } });
    const r = await world.run({ rules: PLANTED_BUG_RULES });
    expect(r.code, r.stdout).toBe(0);
    expect(r.outputs.status).toBe('review-only');
    expect(r.outputs.p1).toBe('1');
    expect(world.github.writes().map((w) => `${w.method} ${w.path} ${w.status}`)).toEqual([
      'POST /repos/octo-org/demo-repo/issues/7/comments 403',
    ]);
    expect(roles()).toEqual(['reviewer']);
    expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
    expect(r.summary).toContain(REPORT_HEADING);
    expect(r.summary).toContain(BUG_FINDING.title);
    expect(bugAnnotation(r)).toBeDefined();
    // Why (GitHub's own words and the permissions it names) and how to get comments.
    expect(r.stdout).toContain('Resource not accessible by integration');
    expect(r.stdout).toContain('issues=write; pull_requests=write');
    expect(r.stdout).toContain(PRT_DOCS);
  });
});

describe('a GitHub App installation token', () => {
  // No repoPermissions: the fake answers GET /repos for an installation token as GitHub does
  // (every permission false), which says nothing about what the token may do.
  const appWorld = () => createWorld({ github: { token: { kind: 'app', slug: APP }, repoPermissions: undefined } });

  it('knows its own comments: a rerun on a reviewed head is skipped; GET /user is never asked', async () => {
    world = await appWorld();
    const clean = [{ role: 'reviewer', answer: reviewerAnswer([]) }];
    const first = await world.run({ rules: clean });
    expect(first.outputs.status, first.stdout).toBe('converged');
    expect(world.github.comments(7).map((c) => c.user.login)).toEqual([`${APP}[bot]`]);

    const writes = world.github.writes().length;
    const again = await world.run({ rules: clean, action: 'synchronize' });
    expect(again.code, again.stdout).toBe(0);
    expect(again.outputs.status).toBe('skipped');
    expect(again.summary).toMatch(/already reviewed/);
    expect(world.github.writes()).toHaveLength(writes);
    expect(roles()).toEqual(['reviewer']);
    expect(askedForUser()).toBe(false);
  });

  it('pushes its fix, and the pull_request run its push starts on that fix commit is skipped', async () => {
    world = await appWorld();
    const r = await world.run({ rules: PLANTED_BUG_RULES, inputs: { 'max-rounds': '1' } });
    expect(r.outputs.status, r.stdout).toBe('max-rounds');
    const fix = (await world.headLog())[0]!;
    expect(fix.body).toContain('Review-Loop-Round: 1');
    expect(new Set(world.github.comments(7).map((c) => c.user.login))).toEqual(new Set([`${APP}[bot]`]));

    // An App token's push starts a new pull_request run (unlike GITHUB_TOKEN's): it must end here.
    const writes = world.github.writes().length;
    const calls = world.agentCalls().length;
    const again = await world.run({ rules: PLANTED_BUG_RULES, action: 'synchronize' });
    expect(again.code, again.stdout).toBe(0);
    expect(again.outputs.status).toBe('skipped');
    expect(again.summary).toContain('Review-Loop-Round');
    expect(world.github.writes()).toHaveLength(writes);
    expect(world.agentCalls()).toHaveLength(calls);
    expect(askedForUser()).toBe(false);
  });
});
