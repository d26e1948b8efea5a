import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedPathsInCommit, commitAll, ensureIdentity } from '../../src/git/index.js';
import { applyChanges } from '../fakes/git-sandbox.js';
import { sandbox } from './helpers.js';

describe('changedPathsInCommit', () => {
  it('is empty for a commit that changes nothing', async () => {
    const s = await sandbox();
    const none = { paths: [], symlinksOutside: [], gitlinks: [] };
    expect(await changedPathsInCommit(s.git, s.headSha, s.headSha)).toEqual(none);
  });

  it('lists renames (both names), deletions, edits and new files of the commit, not of the working tree', async () => {
    const s = await sandbox();
    await ensureIdentity(s.git);
    await s.git(['mv', 'test.js', 'renamed.js']);
    await s.git(['commit', '-qm', 'agent: rename']);
    await applyChanges(s.workDir, {
      'README.md': null,
      '.github/workflows/ci.yml': 'on: push\n',
      'src/math.js': '// edited\n',
      'node_modules/x/index.js': 'ignored\n',
    });
    const sha = (await commitAll(s.git, 'agent: more'))!;
    // Changed on disk after the commit: not part of what a push of the commit carries.
    await applyChanges(s.workDir, { 'later.txt': 'after the commit\n', '.github/workflows/ci.yml': null });
    const r = await changedPathsInCommit(s.git, s.headSha, sha);
    expect(r.paths).toEqual(['.github/workflows/ci.yml', 'README.md', 'renamed.js', 'src/math.js', 'test.js']);
    expect(r.symlinksOutside).toEqual([]);
  });

  it('reports symlinks whose target leaves the repository, following links to links', async () => {
    const s = await sandbox();
    await ensureIdentity(s.git);
    await mkdir(path.join(s.workDir, 'docs'));
    await symlink('/etc/passwd', path.join(s.workDir, 'passwd'));
    await symlink('../../outside', path.join(s.workDir, 'docs', 'up'));
    await symlink('../README.md', path.join(s.workDir, 'docs', 'readme-link'));
    await symlink('src', path.join(s.workDir, 'rel-inside'));
    await symlink('../passwd', path.join(s.workDir, 'docs', 'chained'));
    // An absolute target names a path on whatever machine checks the commit out: outside.
    await symlink(path.join(s.workDir, 'src'), path.join(s.workDir, 'abs-inside'));
    const sha = (await commitAll(s.git, 'agent: links'))!;
    const r = await changedPathsInCommit(s.git, s.headSha, sha);
    expect(r.paths).toEqual(['abs-inside', 'docs/chained', 'docs/readme-link', 'docs/up', 'passwd', 'rel-inside']);
    expect(r.symlinksOutside).toEqual(['abs-inside', 'docs/chained', 'docs/up', 'passwd']);
  });
});
