import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOT_EMAIL, BOT_NAME, commitAll, ensureIdentity, stripPersistedCredentials } from '../../src/git/index.js';
import { out, sandbox } from './helpers.js';

const TOKEN = 'ghs_persistedTokenValue123';
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');

describe('stripPersistedCredentials', () => {
  it('removes the extraheader actions/checkout v4/v5 persists', async () => {
    const s = await sandbox();
    const c = await s.cloneAt(s.mergeRef, { persistToken: TOKEN });
    await c.git(['config', '--local', '--add', 'http.extraheader', 'X-Other: 1']);
    const configFile = path.join(c.dir, '.git', 'config');
    expect(await readFile(configFile, 'utf8')).toContain(BASIC);

    const removed = await stripPersistedCredentials(c.git);
    expect(removed.sort()).toEqual(['http.extraheader', 'http.https://github.com/.extraheader']);
    expect(await readFile(configFile, 'utf8')).not.toContain(BASIC);
    expect((await c.git(['config', '--get-regexp', 'extraheader'], { allowFail: true })).stdout).toBe('');
    expect(await stripPersistedCredentials(c.git)).toEqual([]);
  });

  it('removes a v6-style includeIf credentials file and a token in the remote URL', async () => {
    const s = await sandbox();
    const c = await s.cloneAt(s.headRef);
    const credFile = path.join(s.root, 'git-credentials-1234.config');
    await writeFile(credFile, `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${BASIC}\n`);
    const gitDir = path.join(c.dir, '.git');
    await c.git(['config', '--local', `includeIf.gitdir:${gitDir}.path`, credFile]);
    const harmless = path.join(s.root, 'harmless.config');
    await writeFile(harmless, '[core]\n\tautocrlf = false\n');
    await c.git(['config', '--local', '--add', 'include.path', harmless]);
    await c.git(['config', '--local', 'remote.origin.pushurl', `https://x-access-token:${TOKEN}@github.com/o/r.git`]);
    expect(await out(c.git, 'config', '--get-regexp', 'extraheader')).toContain(BASIC);

    const removed = await stripPersistedCredentials(c.git);
    expect(removed).toContain(`includeif.gitdir:${gitDir}.path`);
    expect(removed).toContain('remote.origin.pushurl (userinfo)');
    expect((await c.git(['config', '--get-regexp', 'extraheader'], { allowFail: true })).stdout).toBe('');
    expect(await readFile(credFile, 'utf8')).not.toContain(BASIC);
    expect(await readFile(path.join(gitDir, 'config'), 'utf8')).not.toContain(TOKEN);
    expect(await out(c.git, 'config', 'remote.origin.pushurl')).toBe('https://github.com/o/r.git');
    expect(await out(c.git, 'config', '--get-all', 'include.path')).toBe(harmless);
  });
  it('cleans every submodule config at any depth and each worktree config, as checkout with submodules writes them', async () => {
    const s = await sandbox();
    const c = await s.cloneAt(s.mergeRef, { persistToken: TOKEN });
    const gitDir = path.join(c.dir, '.git');
    const header = ['http.https://github.com/.extraheader', `AUTHORIZATION: basic ${BASIC}`];
    const files = [
      'modules/lib/config',
      'modules/lib/modules/deep/config',
      'modules/vendor/x/config',
      'config.worktree',
    ];
    for (const f of files) {
      await mkdir(path.dirname(path.join(gitDir, f)), { recursive: true });
      await c.git(['config', '--file', path.join(gitDir, f), ...header]);
    }
    await c.git([
      'config',
      '--file',
      path.join(gitDir, 'modules/lib/config'),
      'remote.origin.url',
      `https://x-access-token:${TOKEN}@github.com/o/lib.git`,
    ]);

    const removed = await stripPersistedCredentials(c.git);
    expect(removed).toContain('http.https://github.com/.extraheader');
    for (const f of files) {
      expect(removed).toContain(`http.https://github.com/.extraheader (in ${path.join('.git', f)})`);
      expect(await readFile(path.join(gitDir, f), 'utf8')).not.toContain(BASIC);
    }
    expect(await readFile(path.join(gitDir, 'modules/lib/config'), 'utf8')).not.toContain(TOKEN);
    expect(await stripPersistedCredentials(c.git)).toEqual([]);
  });
});

describe('ensureIdentity', () => {
  it('defaults to github-actions[bot] when no scope has an identity', async () => {
    const s = await sandbox();
    expect(await ensureIdentity(s.git)).toEqual(['user.name', 'user.email']);
    expect(await out(s.git, 'config', '--local', 'user.name')).toBe(BOT_NAME);
    await writeFile(path.join(s.workDir, 'x.txt'), 'x\n');
    const sha = await commitAll(s.git, 'bot commit');
    expect(await out(s.git, 'log', '-1', '--format=%an <%ae>|%cn <%ce>', sha!)).toBe(
      `${BOT_NAME} <${BOT_EMAIL}>|${BOT_NAME} <${BOT_EMAIL}>`,
    );
  });

  it('copies an identity the runner user set globally into the checkout, where later commands read it', async () => {
    const s = await sandbox({ identity: { name: 'Jane Maintainer', email: 'jane@example.test' } });
    expect(await ensureIdentity(s.git)).toEqual(['user.name', 'user.email']);
    expect(await out(s.git, 'config', '--local', 'user.name')).toBe('Jane Maintainer');
    await writeFile(path.join(s.workDir, 'x.txt'), 'x\n');
    const sha = await commitAll(s.git, 'commit as Jane');
    expect(await out(s.git, 'log', '-1', '--format=%an <%ae>', sha!)).toBe('Jane Maintainer <jane@example.test>');
  });

  it('fills in only the missing half', async () => {
    const s = await sandbox();
    await s.git(['config', '--local', 'user.name', 'Someone']);
    expect(await ensureIdentity(s.git)).toEqual(['user.email']);
    expect(await out(s.git, 'config', 'user.name')).toBe('Someone');
    expect(await out(s.git, 'config', 'user.email')).toBe(BOT_EMAIL);
  });
});
