import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, createGit, ensureIdentity, GitError, pushHead, subcommandOf } from '../../src/git/index.js';
import { applyChanges } from '../fakes/git-sandbox.js';
import { out, sandbox } from './helpers.js';

describe('createGit', () => {
  it('captures output and throws GitError naming the subcommand unless allowFail', async () => {
    const s = await sandbox();
    expect(await s.git(['rev-parse', '--abbrev-ref', 'HEAD'])).toEqual({ code: 0, stdout: `${s.headRef}\n`, stderr: '' });
    const failed = await s.git(['rev-parse', '--verify', 'nope'], { allowFail: true });
    expect(failed.code).toBe(128);
    const err = await s.git(['-c', 'x.y=z', 'cat-file', '-p', 'nope']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    expect((err as GitError).subcommand).toBe('cat-file');
    expect((err as GitError).message).toMatch(/^git cat-file failed \(exit 128\): fatal: Not a valid object name nope/);
  });

  it('reports a missing working directory as a GitError', async () => {
    const s = await sandbox();
    const git = createGit(path.join(s.root, 'missing'), { env: s.env });
    await expect(git(['status'])).rejects.toBeInstanceOf(GitError);
  });

  it('keeps config the caller passes through GIT_CONFIG_COUNT', async () => {
    const s = await sandbox();
    const env = { ...s.env, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'sandbox.marker', GIT_CONFIG_VALUE_0: 'kept' };
    const git = createGit(s.workDir, { env });
    expect(await out(git, 'config', '--get', 'sandbox.marker')).toBe('kept');
    expect(await out(git, 'config', '--get', 'core.hooksPath')).toBe('/dev/null');
  });

  it('never runs hooks an agent planted in .git/hooks', async () => {
    const s = await sandbox();
    await ensureIdentity(s.git);
    const marker = path.join(s.root, 'hook-ran');
    for (const hook of ['pre-commit', 'commit-msg', 'post-commit', 'pre-push', 'reference-transaction']) {
      const file = path.join(s.workDir, '.git', 'hooks', hook);
      await writeFile(file, `#!/bin/sh\necho ${hook} >> '${marker}'\nexit 1\n`);
      await chmod(file, 0o755);
    }
    await applyChanges(s.workDir, { 'fix.txt': 'fix\n' });
    expect(await commitAll(s.git, 'fix')).not.toBeNull();
    expect(await pushHead(s.git, s.headRef)).toEqual({ ok: true });
    await expect(stat(marker)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('gives no Actions token to a filter driver an agent planted in .git/config', async () => {
    const s = await sandbox();
    const dump = path.join(s.root, 'filter-env');
    await s.git(['config', '--local', 'filter.spy.clean', `env >> '${dump}'; cat`]);
    await applyChanges(s.workDir, { '.gitattributes': '* filter=spy\n', 'a.txt': 'a\n' });
    const env = { ...s.env, 'INPUT_GITHUB-TOKEN': 'ghs_inputToken', GITHUB_TOKEN: 'ghs_envToken', ACTIONS_RUNTIME_TOKEN: 'rt' };
    const git = createGit(s.workDir, { env, auth: { serverUrl: 'file://', token: 'ghs_authToken' } });
    await git(['add', '--all']);
    const seen = await readFile(dump, 'utf8');
    expect(seen).toContain(`HOME=${s.env.HOME}`);
    for (const secret of ['ghs_inputToken', 'ghs_envToken', 'ACTIONS_RUNTIME_TOKEN', 'ghs_authToken', 'extraheader']) {
      expect(seen).not.toContain(secret);
    }
  });

  it('finds the subcommand behind global options', () => {
    expect(subcommandOf(['-C', 'dir', '-c', 'a=b', '--no-pager', 'push', 'origin'])).toBe('push');
    expect(subcommandOf(['ls-remote'])).toBe('ls-remote');
    expect(subcommandOf([])).toBe('');
  });
});
