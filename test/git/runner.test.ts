import { existsSync } from 'node:fs';
import { appendFile, chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commitAll,
  createGit,
  ensureIdentity,
  GitError,
  pushHead,
  remoteBranchSha,
  subcommandOf,
} from '../../src/git/index.js';
import { applyChanges } from '../fakes/git-sandbox.js';
import { startGitHttpServer, type GitHttpServer } from './git-http-server.js';
import { out, plantedGit, sandbox } from './helpers.js';

describe('createGit', () => {
  it('captures output and throws GitError naming the subcommand unless allowFail', async () => {
    const s = await sandbox();
    expect(await s.git(['rev-parse', '--abbrev-ref', 'HEAD'])).toEqual({
      code: 0,
      stdout: `${s.headRef}\n`,
      stderr: '',
    });
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
    const env = {
      ...s.env,
      'INPUT_GITHUB-TOKEN': 'ghs_inputToken',
      GITHUB_TOKEN: 'ghs_envToken',
      ACTIONS_RUNTIME_TOKEN: 'rt',
    };
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

// A verify command running without isolation can write the runner user's
// global config, its XDG config and attributes, or the checkout's .git/config. None of it may
// run code inside the action's own git commands, whether or not the local config is pinned yet.
describe('createGit: config the action did not write', () => {
  let server: GitHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('reads no global or XDG config and no global attributes file, in any command', async () => {
    const s = await sandbox();
    await ensureIdentity(s.git);
    const marker = path.join(s.root, 'filter-ran');
    const home = s.env.HOME!;
    const xdg = path.join(s.env.XDG_CONFIG_HOME!, 'git');
    await mkdir(xdg, { recursive: true });
    await appendFile(path.join(home, '.gitconfig'), `[filter "home"]\n\tclean = echo home >> '${marker}'; cat\n`);
    await writeFile(path.join(xdg, 'config'), `[filter "xdg"]\n\tclean = echo xdg >> '${marker}'; cat\n`);
    await writeFile(path.join(xdg, 'attributes'), '*.js filter=xdg\n');
    const edits = { '.gitattributes': '*.md filter=home\n', 'README.md': '# changed\n', 'src/math.js': '// changed\n' };
    await applyChanges(s.workDir, edits);

    expect(await commitAll(s.git, 'fix')).toMatch(/^[0-9a-f]{40}$/);
    expect(existsSync(marker) ? await readFile(marker, 'utf8') : 'never ran').toBe('never ran');
    expect((await s.git(['config', '--get', 'filter.home.clean'], { allowFail: true })).code).toBe(1);
    expect(await out(s.git, 'check-attr', 'filter', 'src/math.js')).toBe('src/math.js: filter: unspecified');
  });

  it('runs no askpass program a planted config names, where it would see the authorization header', async () => {
    const s = await sandbox();
    server = await startGitHttpServer(s.root, 'ghs_theRealToken', s.env);
    const dump = path.join(s.root, 'askpass-env');
    const askpass = path.join(s.root, 'askpass.sh');
    await writeFile(askpass, `#!/bin/sh\nenv >> '${dump}'\necho guessed\n`);
    await chmod(askpass, 0o755);
    await s.git(['remote', 'set-url', 'origin', `${server.url}/origin.git`]);
    plantedGit(s.workDir, s.env, 'config', 'core.askPass', askpass);
    // A stale token: the server answers 401 and git looks for credentials.
    const git = createGit(s.workDir, { env: s.env, auth: { serverUrl: server.url, token: 'ghs_staleToken' } });
    await expect(remoteBranchSha(git, s.headRef)).rejects.toThrow(/git ls-remote failed/);
    expect(existsSync(dump) ? await readFile(dump, 'utf8') : 'never ran').toBe('never ran');
  });

  it('runs no ext:: transport command a planted remote URL names', async () => {
    const s = await sandbox();
    const marker = path.join(s.root, 'ext-ran');
    const script = path.join(s.root, 'ext.sh');
    await writeFile(script, `#!/bin/sh\necho ran >> '${marker}'\nexit 1\n`);
    await chmod(script, 0o755);
    plantedGit(s.workDir, s.env, 'config', 'protocol.ext.allow', 'always');
    plantedGit(s.workDir, s.env, 'remote', 'set-url', 'origin', `ext::${script}`);
    await expect(remoteBranchSha(s.git, s.headRef)).rejects.toThrow(/git ls-remote failed/);
    expect(existsSync(marker) ? await readFile(marker, 'utf8') : 'never ran').toBe('never ran');
  });
});
