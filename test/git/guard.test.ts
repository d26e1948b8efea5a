// What the push guard refuses besides workflows, symlinks leaving the
// repository and `..` paths: the files that decide which code GitHub Actions runs (composite
// and local actions, `action.yml`/`action.yaml` anywhere, since `uses: ./any/dir` loads one) and
// submodules (`.gitmodules`, gitlinks), which make a checkout fetch code from another repository.
import { describe, expect, it } from 'vitest';
import { forbiddenPaths, refusedChanges } from '../../src/fix/guard.js';
import { changedPathsInCommit, ensureIdentity } from '../../src/git/index.js';
import { plantedGit, sandbox } from './helpers.js';

describe('forbiddenPaths: code GitHub Actions runs, and submodules', () => {
  it('refuses local actions, action metadata at any depth and .gitmodules', () => {
    const bad = [
      '.github/actions/deploy/action.yml',
      '.github/actions/setup/run.sh',
      '.github/actions',
      'action.yml',
      'action.yaml',
      'tools/release/action.yaml',
      '.gitmodules',
      'vendor/.gitmodules',
    ];
    expect(forbiddenPaths(bad)).toEqual(bad);
  });

  it('compares without case: a checkout on a case-insensitive runner resolves them the same', () => {
    const bad = ['.GitHub/Workflows/ci.yml', '.github/Actions/x/run.sh', 'tools/Action.YML', '.GITMODULES'];
    expect(forbiddenPaths(bad)).toEqual(bad);
  });

  it('refuses .github itself, which only changes when it stops being a folder (e.g. becomes a symlink)', () => {
    expect(forbiddenPaths(['.github'])).toEqual(['.github']);
  });

  it('still allows names that only look like them', () => {
    const ok = [
      'docs/actions.md',
      '.github/actions-notes.md',
      'src/action.yml.bak',
      'my-action.yml',
      '.gitmodules.md',
      '.github/CODEOWNERS',
    ];
    expect(forbiddenPaths(ok)).toEqual([]);
  });
});

describe('changedPathsInCommit: gitlinks', () => {
  it('lists submodule entries (mode 160000) the commit adds or repoints, not ones it removes', async () => {
    const s = await sandbox();
    await ensureIdentity(s.git);
    const commit = (msg: string) => {
      plantedGit(s.workDir, s.devEnv, 'commit', '-qm', msg);
      return plantedGit(s.workDir, s.env, 'rev-parse', 'HEAD');
    };
    plantedGit(s.workDir, s.env, 'update-index', '--add', '--cacheinfo', `160000,${s.baseSha},vendor/lib`);
    const added = commit('add a submodule');
    expect((await changedPathsInCommit(s.git, s.headSha, added)).gitlinks).toEqual(['vendor/lib']);

    plantedGit(s.workDir, s.env, 'update-index', '--cacheinfo', `160000,${s.headSha},vendor/lib`);
    const repointed = commit('repoint it');
    expect((await changedPathsInCommit(s.git, added, repointed)).gitlinks).toEqual(['vendor/lib']);

    plantedGit(s.workDir, s.env, 'update-index', '--force-remove', 'vendor/lib');
    const removed = commit('drop it');
    const r = await changedPathsInCommit(s.git, repointed, removed);
    expect(r.paths).toEqual(['vendor/lib']);
    expect(r.gitlinks).toEqual([]);
  });
});

describe('refusedChanges', () => {
  it('gives one reason per refused path, symlink and gitlink, and none for a plain fix', () => {
    const changed = {
      paths: ['.gitmodules', 'passwd', 'src/math.js', 'vendor/lib'],
      symlinksOutside: ['passwd'],
      gitlinks: ['vendor/lib'],
    };
    expect(refusedChanges(changed)).toEqual([
      '.gitmodules',
      'passwd (symlink leaving the repository)',
      'vendor/lib (submodule commit)',
    ]);
    expect(refusedChanges({ paths: ['src/math.js'], symlinksOutside: [], gitlinks: [] })).toEqual([]);
  });
});
