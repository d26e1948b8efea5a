import { describe, expect, it } from 'vitest';
import { commitAll, ensureIdentity, pushHead, remoteBranchSha } from '../../src/git/index.js';
import { applyChanges } from '../fakes/git-sandbox.js';
import type { GitSandbox } from '../fakes/git-sandbox.js';
import { out, sandbox } from './helpers.js';

async function localFix(s: GitSandbox): Promise<string> {
  await ensureIdentity(s.git);
  await applyChanges(s.workDir, { 'src/math.js': 'module.exports = { add: (a, b) => a + b };\n' });
  return (await commitAll(s.git, 'Fix add\n\nReview-Loop-Round: 1'))!;
}

describe('pushHead', () => {
  it('fast-forwards the PR branch on origin', async () => {
    const s = await sandbox();
    const sha = await localFix(s);
    expect(await pushHead(s.git, s.headRef)).toEqual({ ok: true });
    expect(await out(s.originGit, 'rev-parse', `refs/heads/${s.headRef}`)).toBe(sha);
    expect(await remoteBranchSha(s.git, s.headRef)).toBe(sha);
  });

  it('reports rejected when someone pushed meanwhile, and leaves origin untouched', async () => {
    const s = await sandbox();
    await localFix(s);
    const human = await s.pushFromAnotherClone({ 'HUMAN.md': 'mine\n' });
    const r = await pushHead(s.git, s.headRef);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.rejected).toBe(true);
    expect(r.message).toMatch(/moved on origin/);
    expect(await out(s.originGit, 'rev-parse', `refs/heads/${s.headRef}`)).toBe(human);
  });

  it('reports a failure that is not a race as rejected: false', async () => {
    const s = await sandbox();
    await localFix(s);
    await s.git(['remote', 'set-url', 'origin', `${s.originUrl}-missing`]);
    const r = await pushHead(s.git, s.headRef);
    expect(r).toMatchObject({ ok: false, rejected: false });
  });

  it('refuses branch names check-ref-format rejects or that look like force refspecs', async () => {
    const s = await sandbox();
    await localFix(s);
    for (const bad of ['a..b', 'x.lock', 'HEAD', '+main', '-f', 'main:other', 'a b', '']) {
      await expect(pushHead(s.git, bad)).rejects.toThrow(/refusing branch name/);
    }
    expect(await out(s.originGit, 'rev-parse', `refs/heads/${s.headRef}`)).toBe(s.headSha);
    expect(await out(s.originGit, 'for-each-ref', '--format=%(refname)', 'refs/heads')).toBe(
      `refs/heads/${s.headRef}\nrefs/heads/main`,
    );
  });
});

describe('remoteBranchSha', () => {
  it('reads a branch on origin, null when it does not exist', async () => {
    const s = await sandbox();
    expect(await remoteBranchSha(s.git, s.baseRef)).toBe(s.baseSha);
    expect(await remoteBranchSha(s.git, 'no/such-branch')).toBeNull();
  });
});
