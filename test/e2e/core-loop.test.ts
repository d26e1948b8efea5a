import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorld, TOKEN, type World } from './harness.js';
import { BUG_FINDING, FIXED_MATH, PLANTED_BUG_RULES, reviewerAnswer } from './scenarios.js';

const MARKER = '<!-- pr-review-loop-marker -->';
let world: World;

beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.close();
});

describe('the bundled action, end to end', () => {
  it('reviews, fixes, verifies, pushes and converges on a PR with a planted bug', async () => {
    const oldHead = world.sandbox.headSha;
    const r = await world.run({ rules: PLANTED_BUG_RULES, inputs: { verify: 'npm test' } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.status).toBe('converged');
    expect(r.outputs.rounds).toBe('2');
    expect(r.outputs.fixed).toBe('1');

    const comments = world.github.comments(7);
    expect(comments).toHaveLength(3);
    for (const c of comments) expect(c.body).toContain(MARKER);
    expect(comments[0]!.body).toContain(BUG_FINDING.title);
    expect(comments[0]!.body).toMatch(/src\/math\.js#L2/);

    const log = await world.headLog();
    const fix = log[0]!;
    expect(fix.parents).toEqual([oldHead]);
    expect(fix.body).toContain('Review-Loop-Round: 1');
    expect(log[1]!.sha).toBe(oldHead);
    const content = await world.sandbox.originGit(['show', `${fix.sha}:src/math.js`]);
    expect(content.stdout).toBe(FIXED_MATH);
    expect(r.outputs['head-sha']).toBe(fix.sha);
    // The runner needs the one ::add-mask:: line to hide the token; nothing else may show it.
    const logged = (r.stdout + r.stderr).split('\n').filter((l) => !l.startsWith('::add-mask::'));
    expect(logged.join('\n')).not.toContain(TOKEN);
  });

  it('review-only mode posts the report and never pushes', async () => {
    const r = await world.run({ rules: PLANTED_BUG_RULES, inputs: { mode: 'review' } });
    expect(r.outputs.status).toBe('review-only');
    expect(world.github.comments(7)).toHaveLength(1);
    expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
    expect(world.agentCalls().map((c) => c.role)).toEqual(['reviewer']);
    expect(r.code).toBe(0);
  });

  it('makes no write request and runs no git command on an invalid config', async () => {
    const r = await world.run({ rules: PLANTED_BUG_RULES, inputs: { 'max-rounds': 'eleven' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('max-rounds');
    expect(r.stdout).toContain('eleven');
    expect(r.outputs.status).toBe('failed');
    expect(world.github.requests).toHaveLength(0);
    expect(world.agentCalls()).toHaveLength(0);
  });

  it('pushes nothing when verification fails, and says which command failed', async () => {
    const rules = [
      { role: 'reviewer', answer: reviewerAnswer([BUG_FINDING]) },
      {
        role: 'fixer',
        fixAll: true,
        edits: { 'src/math.js': 'function add(a, b) {\n  return a * b;\n}\n\nmodule.exports = { add };\n' },
      },
    ];
    const r = await world.run({ rules, inputs: { verify: 'echo checking\nnpm test' } });
    expect(r.outputs.status).toBe('failed');
    expect(r.code).toBe(1);
    expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
    const comments = world.github.comments(7);
    expect(comments).toHaveLength(2);
    expect(comments[1]!.body).toContain('npm test');
    expect(comments[1]!.body).toMatch(/add\(2, 3\) should be 5/);
  });

  it('makes the round partial, not a crash, when one reviewer answers garbage', async () => {
    const rules = [
      { role: 'reviewer', name: 'reviewer-2', answer: 'I refuse to answer in JSON.' },
      ...PLANTED_BUG_RULES,
    ];
    const r = await world.run({ rules, inputs: { reviewers: 'command:model-a\ncommand:model-b', verify: 'npm test' } });
    expect(r.outputs.status).toBe('converged');
    const first = world.github.comments(7)[0]!.body;
    expect(first).toMatch(/partial/i);
    expect(first).toContain('reviewer-2');
  });

  it('never lets an agent see a GitHub or Actions token', async () => {
    await world.run({ rules: PLANTED_BUG_RULES, inputs: { verify: 'npm test' } });
    const calls = world.agentCalls();
    expect(calls.length).toBeGreaterThanOrEqual(3);
    for (const c of calls) {
      expect(JSON.stringify(c.env)).not.toContain(TOKEN);
      expect(c.env.ACTIONS_RUNTIME_TOKEN).toBeUndefined();
      expect(Object.keys(c.env).filter((k) => k.startsWith('INPUT_'))).toEqual([]);
    }
    const config = await world.sandbox.git(['config', '--list'], { allowFail: true });
    expect(config.stdout).not.toContain(TOKEN);
  });
});

describe('a PR from a fork', () => {
  it('is review-only: it posts a report and pushes nothing', async () => {
    const fork = await createWorld({ pull: { headRepoFullName: 'stranger/demo-repo' } });
    try {
      const r = await fork.run({ rules: PLANTED_BUG_RULES, inputs: { verify: 'npm test' } });
      expect(r.outputs.status).toBe('review-only');
      expect(fork.github.comments(7)).toHaveLength(1);
      expect(fork.github.comments(7)[0]!.body).toMatch(/fork/);
      expect((await fork.headLog())[0]!.sha).toBe(fork.sandbox.headSha);
      expect(fork.agentCalls().some((c) => c.role === 'fixer')).toBe(false);
    } finally {
      await fork.close();
    }
  });
});

describe('a PR from a fork with allow-fork-fixes', () => {
  it('pushes the fix to the fork (not to the base repository) when the author allows edits by maintainers', async () => {
    const fork = await createWorld({
      sandbox: { repoFullName: 'octo-org/demo-repo', forkOwner: 'stranger' },
      pull: { headRepoFullName: 'stranger/demo-repo', maintainerCanModify: true },
    });
    try {
      const r = await fork.run({
        rules: PLANTED_BUG_RULES,
        inputs: { verify: 'npm test', 'allow-fork-fixes': 'true' },
      });
      expect(r.outputs.status, r.stdout).toBe('converged');
      const log = await fork.headLog();
      expect(log[0]!.parents).toEqual([fork.sandbox.headSha]);
      expect(log[0]!.body).toContain('Review-Loop-Round: 1');
      // The base repository never got the PR branch.
      const inBase = await fork.sandbox.originGit(
        ['rev-parse', '--verify', '--quiet', `refs/heads/${fork.sandbox.headRef}`],
        { allowFail: true },
      );
      expect(inBase.code).not.toBe(0);
    } finally {
      await fork.close();
    }
  });

  it('stays review-only when the author does not allow edits by maintainers', async () => {
    const fork = await createWorld({
      sandbox: { repoFullName: 'octo-org/demo-repo', forkOwner: 'stranger' },
      pull: { headRepoFullName: 'stranger/demo-repo', maintainerCanModify: false },
    });
    try {
      const r = await fork.run({
        rules: PLANTED_BUG_RULES,
        inputs: { verify: 'npm test', 'allow-fork-fixes': 'true' },
      });
      expect(r.outputs.status).toBe('review-only');
      expect(fork.github.comments(7)[0]!.body).toContain('allow edits by maintainers');
      expect((await fork.headLog())[0]!.sha).toBe(fork.sandbox.headSha);
    } finally {
      await fork.close();
    }
  });
});
