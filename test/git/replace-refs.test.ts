// `git replace` and grafts change what diff, ls-tree and cat-file show, but not
// what `git push` sends (git-replace(1): replacements are used "by all Git commands except those
// doing reachability traversal (prune, pack transfer and fsck)"). A fixer or a verify command
// that can write .git must not be able to show the push guard one tree and push another.
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forbiddenPaths } from '../../src/fix/guard.js';
import { changedPathsInCommit, commitAll, ensureIdentity, pushHead, squashSince } from '../../src/git/index.js';
import { removeReplaceRefsAndGrafts } from '../../src/git/replace-refs.js';
import { applyChanges, SAMPLE_PROJECT, type GitSandbox } from '../fakes/git-sandbox.js';
import { out, plantedGit, sandbox } from './helpers.js';

const FIXED_MATH = 'function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n';
const WITH_CI = { ...SAMPLE_PROJECT, '.github/workflows/ci.yml': 'on: push\njobs: {}\n' };

/** The fixer's commit: a real fix plus a new workflow file. */
async function fixWithWorkflow(s: GitSandbox): Promise<string> {
  await ensureIdentity(s.git);
  await applyChanges(s.workDir, { 'src/math.js': FIXED_MATH, '.github/workflows/evil.yml': 'on: push\n' });
  return (await commitAll(s.git, 'fix'))!;
}

const replaceRefs = (s: GitSandbox) =>
  plantedGit(s.workDir, s.env, 'for-each-ref', '--format=%(refname)', 'refs/replace/');
const graftsFile = (s: GitSandbox) => path.join(s.workDir, '.git', 'info', 'grafts');

describe('replace refs', () => {
  it('do not hide a new workflow file from the guard (the workflows tree replaced by the base one)', async () => {
    const s = await sandbox({ baseFiles: WITH_CI });
    const sha = await fixWithWorkflow(s);
    const env = s.env;
    plantedGit(
      s.workDir,
      env,
      'replace',
      plantedGit(s.workDir, env, 'rev-parse', `${sha}:.github/workflows`),
      plantedGit(s.workDir, env, 'rev-parse', `${s.headSha}:.github/workflows`),
    );
    // The trick works on plain git: the commit looks like it only fixes src/math.js.
    expect(plantedGit(s.workDir, env, 'diff', '--name-only', s.headSha, sha)).toBe('src/math.js');

    const changed = await changedPathsInCommit(s.git, s.headSha, sha);
    expect(changed.paths).toEqual(['.github/workflows/evil.yml', 'src/math.js']);
    expect(forbiddenPaths(changed.paths)).toEqual(['.github/workflows/evil.yml']);
  });

  it('do not make a symlink that leaves the repository look like one that stays inside', async () => {
    const s = await sandbox();
    await ensureIdentity(s.git);
    await symlink('/etc/passwd', path.join(s.workDir, 'passwd'));
    const sha = (await commitAll(s.git, 'link'))!;
    const target = plantedGit(s.workDir, s.env, 'rev-parse', `${sha}:passwd`);
    await writeFile(path.join(s.root, 'inside'), 'README.md');
    const harmless = plantedGit(s.workDir, s.env, 'hash-object', '-w', path.join(s.root, 'inside'));
    plantedGit(s.workDir, s.env, 'replace', target, harmless);
    expect(plantedGit(s.workDir, s.env, 'cat-file', 'blob', target)).toBe('README.md');

    expect((await changedPathsInCommit(s.git, s.headSha, sha)).symlinksOutside).toEqual(['passwd']);
  });

  it('stay off even when the local config asks for them (core.useReplaceRefs=true)', async () => {
    const s = await sandbox({ baseFiles: WITH_CI });
    const sha = await fixWithWorkflow(s);
    const tree = plantedGit(s.workDir, s.env, 'rev-parse', `${sha}^{tree}`);
    plantedGit(s.workDir, s.env, 'replace', tree, plantedGit(s.workDir, s.env, 'rev-parse', `${s.headSha}^{tree}`));
    plantedGit(s.workDir, s.env, 'config', 'core.useReplaceRefs', 'true');
    // git 2.39 lets this setting override GIT_NO_REPLACE_OBJECTS; the command line must win.
    const listed = await out(s.git, 'ls-tree', '-r', '--name-only', sha, '.github');
    expect(listed).toBe('.github/workflows/ci.yml\n.github/workflows/evil.yml');
  });

  it('are deleted, loose and packed, with info/grafts, before the guard and before the push', async () => {
    const s = await sandbox();
    const sha = await fixWithWorkflow(s);
    const plant = async () => {
      const blob = plantedGit(s.workDir, s.env, 'rev-parse', `${sha}:src/math.js`);
      const other = plantedGit(s.workDir, s.env, 'rev-parse', `${s.headSha}:src/math.js`);
      plantedGit(s.workDir, s.env, 'replace', '-f', blob, other);
      plantedGit(s.workDir, s.env, 'pack-refs', '--all');
      plantedGit(s.workDir, s.env, 'replace', '-f', `${sha}^{tree}`, `${s.headSha}^{tree}`);
      await mkdir(path.dirname(graftsFile(s)), { recursive: true });
      await writeFile(graftsFile(s), `${sha} ${s.baseSha}\n`);
      expect(replaceRefs(s).split('\n')).toHaveLength(2);
    };
    await plant();
    // Reading what the commit changes removes nothing: that is a step of its own.
    await changedPathsInCommit(s.git, s.headSha, sha);
    expect(replaceRefs(s).split('\n')).toHaveLength(2);
    expect(await removeReplaceRefsAndGrafts(s.git)).toHaveLength(3);
    expect(replaceRefs(s)).toBe('');
    expect(existsSync(graftsFile(s))).toBe(false);

    await plant();
    expect(await pushHead(s.git, s.headRef, sha)).toEqual({ ok: true });
    expect(replaceRefs(s)).toBe('');
    expect(existsSync(graftsFile(s))).toBe(false);
    expect(plantedGit(s.originDir, s.env, 'for-each-ref', 'refs/replace/')).toBe('');
  });
});

describe('grafts', () => {
  it('do not make an unrelated history pass for a descendant of the round base', async () => {
    const s = await sandbox();
    await ensureIdentity(s.git);
    // The fixer starts an unrelated history, then grafts it onto the round's base.
    plantedGit(s.workDir, s.env, 'checkout', '-q', '--orphan', 'elsewhere');
    plantedGit(s.workDir, s.env, '-c', 'user.name=f', '-c', 'user.email=f@f', 'commit', '-qm', 'orphan');
    const head = plantedGit(s.workDir, s.env, 'rev-parse', 'HEAD');
    await writeFile(graftsFile(s), `${head} ${s.headSha}\n`);
    // Plain git now takes the base for an ancestor (execFileSync throws on exit 1).
    plantedGit(s.workDir, s.env, 'merge-base', '--is-ancestor', s.headSha, 'HEAD');

    expect(await out(s.git, 'log', '--format=%P', '-1', head)).toBe('');
    await expect(squashSince(s.git, s.headSha, 'fix')).rejects.toThrow(/is not an ancestor of HEAD/);
  });
});
