// `/review-loop` runs what the maintainer saw, not whatever the PR head is
// when the run starts. `/review-loop <sha>` runs only when that sha is the head; a bare
// `/review-loop` runs only when the head arrived before the comment was written. A refusal
// says why in the log and the job summary, posts nothing and runs no agent.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorld, type RunOptions, type World } from '../harness.js';
import { BUG_FINDING, reviewerAnswer } from '../scenarios.js';

let world: World;
beforeEach(async () => {
  world = await createWorld({ github: { collaborators: { alice: 'write' } } });
});
afterEach(async () => {
  await world.close();
});

const RULES = [{ role: 'reviewer', answer: reviewerAnswer([BUG_FINDING]) }];
const byAlice = (body: string, createdAt?: string): RunOptions => ({
  rules: RULES,
  eventName: 'issue_comment',
  checkout: 'base',
  comment: { body, login: 'alice', ...(createdAt ? { createdAt } : {}) },
  inputs: { mode: 'review' },
});
const iso = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString().replace(/\.\d{3}Z$/, 'Z');
const headRef = () => `refs/heads/${world.sandbox.headRef}`;

/** Someone pushes a new head whose committer date claims an old time (git lets anyone write any date). */
async function pushBackdated(committerDate: string): Promise<string> {
  const clone = await world.sandbox.cloneAt(world.sandbox.headRef);
  writeFileSync(
    path.join(clone.dir, 'src/math.js'),
    'function add(a, b) {\n  return a * b;\n}\n\nmodule.exports = { add };\n',
  );
  const env = { ...world.sandbox.devEnv, GIT_AUTHOR_DATE: committerDate, GIT_COMMITTER_DATE: committerDate };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: clone.dir, env, encoding: 'utf8' }).trim();
  git('commit', '-qam', 'Make add faster');
  git('push', '-q', 'origin', `HEAD:${headRef()}`);
  return git('rev-parse', 'HEAD');
}

function expectRefused(r: Awaited<ReturnType<World['run']>>, ...mentions: string[]): void {
  expect(r.outputs.status, r.stdout).toBe('skipped');
  expect(r.code).toBe(0);
  const warning = /::warning::(Refused: .*)/.exec(r.stdout)?.[1] ?? '';
  expect(warning, r.stdout).not.toBe('');
  for (const m of mentions) {
    expect(warning).toContain(m);
    expect(r.summary).toContain(m);
  }
  expect(world.github.writes()).toEqual([]);
  expect(world.agentCalls()).toEqual([]);
}

describe('/review-loop <sha>', () => {
  it('runs when the sha (full, or an unambiguous short one) is the PR head', async () => {
    const head = world.sandbox.headSha;
    const full = await world.run(byAlice(`/review-loop ${head}`));
    expect(full.outputs.status, full.stdout).toBe('review-only');
    const short = await world.run(byAlice(`/review-loop ${head.slice(0, 7)} please`));
    expect(short.outputs.status, short.stdout).toBe('review-only');
    expect(world.github.comments(7)).toHaveLength(2);
  });

  it('is refused when the head moved after the maintainer looked: names both heads, posts nothing', async () => {
    const seen = world.sandbox.headSha;
    const moved = await world.sandbox.pushFromAnotherClone(
      { 'src/math.js': 'module.exports = { add: () => 0 };\n' },
      {
        branch: world.sandbox.headRef,
      },
    );
    const r = await world.run(byAlice(`/review-loop ${seen.slice(0, 10)}`));
    expectRefused(r, seen.slice(0, 10), moved);
  });

  it('is refused, with an example, when the sha is too short to name one commit', async () => {
    const r = await world.run(byAlice(`/review-loop ${world.sandbox.headSha.slice(0, 5)}`));
    expectRefused(r, world.sandbox.headSha.slice(0, 5), '/review-loop ');
  });
});

describe('/review-loop without a sha', () => {
  it('is refused when the head was pushed after the comment, whatever date its commit claims', async () => {
    const commentAt = iso(60_000);
    const pushed = await pushBackdated('2001-01-01T00:00:00Z');
    world.github.state.recordPush({ ref: headRef(), after: pushed, timestamp: iso(0) });
    const r = await world.run(byAlice('/review-loop', commentAt));
    expectRefused(r, pushed, commentAt);
  });

  it('runs when the head arrived before the comment', async () => {
    world.github.state.recordPush({ ref: headRef(), after: world.sandbox.headSha, timestamp: iso(10 * 60_000) });
    const r = await world.run(byAlice('/review-loop'));
    expect(r.outputs.status, r.stdout).toBe('review-only');
    expect(world.github.comments(7)).toHaveLength(1);
  });
});
