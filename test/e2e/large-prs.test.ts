// PRs past GitHub's diff limits. The diff media type refuses more than 300 files or
// 20,000 lines (406 too_large) and "List pull requests files" stops at 3,000 files; the action
// takes the diff and the file list from the checkout instead, keeps the diff within
// its budget, says "large-diff sampled" when it cut, and keeps the prompt small.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generatedFiles, PLANTED_BUG } from '../fakes/git-sandbox.js';
import type { GitSandboxOptions } from '../fakes/git-sandbox.js';
import { createWorld, TOKEN, type World } from './harness.js';
import { BUG_FINDING, reviewerAnswer } from './scenarios.js';

const SAMPLED = 'large-diff sampled';
const MARKER = '<!-- pr-review-loop-marker -->';
/**
 * The reviewer template with a short PR is about 10,400 characters (11,000 to 12,500 with the
 * large-diff paragraph and the head's test results, more with each rule the answer format states next
 * to its field); a list of 350 or 3,001 files would be tens of thousands more.
 */
const SMALL_PROMPT = 16_000;
let world: World;

afterEach(async () => {
  await world?.close();
});

interface FileEntry {
  filename: string;
  status: string;
  additions: number;
  deletions: number;
  previousFilename?: string;
  inDiff?: string;
}

function reviewerContext() {
  const call = world.agentCalls().find((c) => c.role === 'reviewer');
  if (!call) throw new Error('no reviewer was called');
  const read = (name: string) => readFileSync(path.join(call.contextDir, name), 'utf8');
  return {
    files: JSON.parse(read('files.json')) as FileEntry[],
    diff: read('diff.patch'),
    pr: JSON.parse(read('pr.json')) as { diffTruncated: boolean },
    promptChars: (call as unknown as { promptChars: number }).promptChars,
  };
}

const shownFiles = (diff: string) =>
  diff
    .split('\n')
    .filter((l) => l.startsWith('diff --git '))
    .map((l) => l.split(' b/')[1]!);
const blocks = (diff: string) => shownFiles(diff).length;
const REVIEW = { inputs: { mode: 'review' }, rules: [{ role: 'reviewer', answer: reviewerAnswer([BUG_FINDING]) }] };

async function reviewLargePr(sandbox: GitSandboxOptions) {
  world = await createWorld({ sandbox });
  const r = await world.run(REVIEW);
  expect(r.outputs.status, r.stdout + r.stderr).toBe('review-only');
  expect(r.code).toBe(0);
  const comments = world.github.comments(7);
  expect(comments).toHaveLength(1);
  expect(comments[0]!.body).toContain(MARKER);
  expect(comments[0]!.body).toContain(BUG_FINDING.title);
  // The diff and the file list come from git: the API is not asked for either.
  const asked = world.github.requests.filter((q) => q.path.endsWith('/files') || /diff/.test(q.headers.accept ?? ''));
  expect(asked.map((q) => q.path)).toEqual([]);
  return { r, ctx: reviewerContext() };
}

describe('large PRs', () => {
  it('reviews a 350-file PR (over the 300 files of the diff media type) with its whole diff', async () => {
    const { ctx } = await reviewLargePr({ prChanges: { ...PLANTED_BUG, ...generatedFiles(349, 1) } });
    expect(ctx.files).toHaveLength(350);
    const math = ctx.files.find((f) => f.filename === 'src/math.js');
    expect(math).toMatchObject({ status: 'modified', additions: 1, deletions: 1 });
    expect(ctx.files.filter((f) => f.status === 'added')).toHaveLength(349);
    expect(blocks(ctx.diff)).toBe(350);
    expect(ctx.diff).toContain('+  return a - b;');
    expect(ctx.diff).not.toContain(SAMPLED);
    expect(ctx.pr.diffTruncated).toBe(false);
    expect(ctx.promptChars).toBeLessThan(SMALL_PROMPT);
  });

  it('reviews a 25,000-line PR (over 20,000 lines) with a sampled diff within the budget', async () => {
    const { ctx } = await reviewLargePr({ prChanges: { ...PLANTED_BUG, ...generatedFiles(5, 5_000, 'big') } });
    expect(ctx.files.map((f) => [f.filename, f.additions])).toEqual([
      ['big/file-0.ts', 5000],
      ['big/file-1.ts', 5000],
      ['big/file-2.ts', 5000],
      ['big/file-3.ts', 5000],
      ['big/file-4.ts', 5000],
      ['src/math.js', 1],
    ]);
    expect(ctx.diff).toContain(SAMPLED);
    expect(ctx.pr.diffTruncated).toBe(true);
    // The small change is kept whole; the budget (4,000 lines by default) holds the rest of the diff.
    expect(ctx.diff).toContain('diff --git a/src/math.js b/src/math.js');
    expect(ctx.diff).toContain('+  return a - b;');
    expect(ctx.diff.split('\n').length).toBeLessThan(4_000 + 20);
    expect(ctx.diff.length).toBeLessThanOrEqual(200_000 + 2_000);
    expect(ctx.promptChars).toBeLessThan(SMALL_PROMPT);
  });

  it('lists all 3,001 files of a PR past the 3,000 the API lists, and keeps the prompt small', async () => {
    const { ctx, r } = await reviewLargePr({ prChanges: { ...PLANTED_BUG, ...generatedFiles(3000, 1) } });
    expect(ctx.files).toHaveLength(3001);
    expect(new Set(ctx.files.map((f) => f.filename)).size).toBe(3001);
    expect(ctx.files.map((f) => f.filename)).toContain('gen/file-2999.ts');
    expect(ctx.diff).toContain(SAMPLED);
    // files.json says which files the sampled diff holds, and it holds exactly those.
    const inDiff = ctx.files
      .filter((f) => f.inDiff !== 'omitted')
      .map((f) => f.filename)
      .sort();
    expect(inDiff.length).toBeGreaterThan(500);
    expect(shownFiles(ctx.diff).sort()).toEqual(inDiff);
    expect(ctx.promptChars).toBeLessThan(SMALL_PROMPT);
    expect(r.summary).toContain(BUG_FINDING.title);
  });

  it('gets the diff of a shallow checkout of the head only, fetching the base shallowly with the token', async () => {
    // 120 commits of history before the base: more than the action needs to fetch.
    const prChanges = { ...PLANTED_BUG, ...generatedFiles(349, 1) };
    world = await createWorld({ sandbox: { baseHistory: 120, prChanges } });
    let checkoutDir = '';
    const git = (...args: string[]) =>
      spawnSync('git', args, { cwd: checkoutDir, env: world.sandbox.env, encoding: 'utf8' });
    const run = await world.run({
      ...REVIEW,
      checkout: 'head',
      // actions/checkout with its default fetch-depth 1 on the head branch: no base commit at all.
      prepare: async (c) => {
        checkoutDir = c.dir;
        await world.sandbox.recloneInto(c.dir, world.sandbox.headRef, { depth: 1 });
        expect(git('cat-file', '-e', `${world.sandbox.baseSha}^{commit}`).status).not.toBe(0);
      },
    });
    expect(run.outputs.status, run.stdout + run.stderr).toBe('review-only');
    const ctx = reviewerContext();
    expect(ctx.files).toHaveLength(350);
    expect(blocks(ctx.diff)).toBe(350);
    expect(ctx.diff).toContain('+  return a - b;');
    expect(git('cat-file', '-t', world.sandbox.baseSha).stdout.trim()).toBe('commit');
    // Shallow where possible: the action deepened just enough, it did not fetch the whole history.
    expect(git('rev-parse', '--is-shallow-repository').stdout.trim()).toBe('true');
    expect(Number(git('rev-list', '--count', '--all').stdout)).toBeLessThan(120);
    // The token reached git through the environment only, never the checkout's files.
    const basic = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
    for (const secret of [TOKEN, basic]) {
      const grep = spawnSync('grep', ['-rl', '--', secret, path.join(checkoutDir, '.git')], { encoding: 'utf8' });
      expect(grep.stdout).toBe('');
      expect(grep.status).toBe(1);
    }
  });
});
