import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  currentBranch,
  ensureAtPrHead,
  headSha,
  isWorkTree,
  PrMovedError,
  statusPorcelain,
} from '../../src/git/index.js';
import { createGit } from '../../src/git/runner.js';
import { out, sandbox } from './helpers.js';

describe('ensureAtPrHead', () => {
  it('does nothing when HEAD is the head sha on the head branch', async () => {
    const s = await sandbox();
    expect(await ensureAtPrHead(s.git, { headRef: s.headRef, headSha: s.headSha })).toBe(false);
    expect(await headSha(s.git)).toBe(s.headSha);
    expect(await currentBranch(s.git)).toBe(s.headRef);
  });

  it('moves a merge-ref checkout (detached) onto the head branch', async () => {
    const s = await sandbox();
    const c = await s.cloneAt(s.mergeRef);
    expect(await headSha(c.git)).toBe(s.mergeSha);
    expect(await currentBranch(c.git)).toBeNull();
    expect(await ensureAtPrHead(c.git, { headRef: s.headRef, headSha: s.headSha })).toBe(true);
    expect(await headSha(c.git)).toBe(s.headSha);
    expect(await currentBranch(c.git)).toBe(s.headRef);
    expect(await statusPorcelain(c.git)).toEqual([]);
  });

  it('moves a default-branch checkout, also from a depth-1 clone', async () => {
    const s = await sandbox();
    const c = await s.cloneAt(s.baseRef, { depth: 1 });
    expect(await out(c.git, 'rev-parse', '--is-shallow-repository')).toBe('true');
    await ensureAtPrHead(c.git, { headRef: s.headRef, headSha: s.headSha });
    expect(await headSha(c.git)).toBe(s.headSha);
    expect(await currentBranch(c.git)).toBe(s.headRef);
  });

  it('throws when the PR moved, leaving the checkout where it was', async () => {
    const s = await sandbox();
    const c = await s.cloneAt(s.mergeRef, { depth: 1 });
    const moved = await s.pushFromAnotherClone({ 'NOTES.md': 'later\n' });
    const err = await ensureAtPrHead(c.git, { headRef: s.headRef, headSha: s.headSha }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PrMovedError);
    expect((err as PrMovedError).actualSha).toBe(moved);
    expect(await headSha(c.git)).toBe(s.mergeSha);
  });

  it('refuses a head ref that check-ref-format rejects, before any fetch', async () => {
    const s = await sandbox();
    const c = await s.cloneAt(s.mergeRef);
    for (const bad of ['a..b', '-x', 'HEAD', 'feat ure', '@{-1}', 'x.lock']) {
      await expect(ensureAtPrHead(c.git, { headRef: bad, headSha: s.headSha })).rejects.toThrow(/refusing branch name/);
    }
    expect(await out(c.git, 'for-each-ref', '--format=%(refname)', 'refs/remotes/origin')).toBe('');
  });
});

describe('repository state', () => {
  it('tells a work tree from a plain folder and lists dirty paths', async () => {
    const s = await sandbox();
    expect(await isWorkTree(s.git)).toBe(true);
    expect(await isWorkTree(createGit(s.root, { env: s.env }))).toBe(false);
    await s.git(['mv', 'README.md', 'READ ME.md']);
    await writeFile(`${s.workDir}/new file.txt`, 'x');
    expect((await statusPorcelain(s.git)).sort()).toEqual(['READ ME.md', 'README.md', 'new file.txt']);
  });
});
