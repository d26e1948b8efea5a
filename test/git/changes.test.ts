import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedPathsSince, ensureIdentity } from '../../src/git/index.js';
import { applyChanges } from '../fakes/git-sandbox.js';
import { out, sandbox } from './helpers.js';

describe('changedPathsSince', () => {
  it('is empty for an untouched checkout', async () => {
    const s = await sandbox();
    expect(await changedPathsSince(s.git, s.headSha)).toEqual({ paths: [], symlinksOutside: [] });
  });

  it('lists renames (both names), deletions, edits, committed and untracked files', async () => {
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
    const index = await out(s.git, 'ls-files', '--stage');
    const r = await changedPathsSince(s.git, s.headSha);
    expect(r.paths).toEqual(['.github/workflows/ci.yml', 'README.md', 'renamed.js', 'src/math.js', 'test.js']);
    expect(r.symlinksOutside).toEqual([]);
    expect(await out(s.git, 'ls-files', '--stage')).toBe(index); // the real index is untouched
  });

  it('reports symlinks whose target leaves the work tree', async () => {
    const s = await sandbox();
    await mkdir(path.join(s.workDir, 'docs'));
    await symlink('/etc/passwd', path.join(s.workDir, 'passwd'));
    await symlink('../../outside', path.join(s.workDir, 'docs', 'up'));
    await symlink('../README.md', path.join(s.workDir, 'docs', 'readme-link'));
    await symlink(path.join(s.workDir, 'src'), path.join(s.workDir, 'abs-inside'));
    await symlink('../passwd', path.join(s.workDir, 'docs', 'chained'));
    const r = await changedPathsSince(s.git, s.headSha);
    expect(r.paths).toEqual(['abs-inside', 'docs/chained', 'docs/readme-link', 'docs/up', 'passwd']);
    expect(r.symlinksOutside).toEqual(['docs/chained', 'docs/up', 'passwd']);
  });

  it('leaves excluded paths out', async () => {
    const s = await sandbox();
    await applyChanges(s.workDir, { 'CLAUDE.md': 'x\n', '.claude/settings.json': '{}\n', 'a.txt': 'a\n' });
    await writeFile(path.join(s.workDir, '.claudex'), 'not excluded\n');
    const r = await changedPathsSince(s.git, s.headSha, { exclude: ['CLAUDE.md', '.claude'] });
    expect(r.paths).toEqual(['.claudex', 'a.txt']);
  });
});
