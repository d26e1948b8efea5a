import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commitAll,
  createGit,
  ensureAtPrHead,
  ensureIdentity,
  pushHead,
  remoteBranchSha,
} from '../../src/git/index.js';
import { applyChanges } from '../fakes/git-sandbox.js';
import { startGitHttpServer } from './git-http-server.js';
import type { GitHttpServer } from './git-http-server.js';
import { out, sandbox } from './helpers.js';

const TOKEN = 'ghs_httpTestToken987';
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
let server: GitHttpServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('GitAuth through smart HTTP', () => {
  it('fetches and pushes with the token from the child env only', async () => {
    const s = await sandbox();
    server = await startGitHttpServer(s.root, TOKEN, s.env);
    const c = await s.cloneAt(s.mergeRef, { depth: 1 });
    await c.git(['remote', 'set-url', 'origin', `${server.url}/origin.git`]);
    const trace = path.join(s.root, 'git-trace.log');
    const env = { ...s.env, GIT_TRACE: trace };

    const anonymous = createGit(c.dir, { env });
    await expect(ensureAtPrHead(anonymous, { headRef: s.headRef, headSha: s.headSha })).rejects.toThrow(
      /git fetch failed/,
    );

    const git = createGit(c.dir, { env, auth: { serverUrl: server.url, token: TOKEN } });
    await ensureAtPrHead(git, { headRef: s.headRef, headSha: s.headSha });
    await ensureIdentity(git);
    await applyChanges(c.dir, { 'src/math.js': 'module.exports = { add: (a, b) => a + b };\n' });
    const sha = await commitAll(git, 'Fix add\n\nReview-Loop-Round: 1');

    expect(await pushHead(anonymous, s.headRef)).toMatchObject({ ok: false, rejected: false });
    expect(await pushHead(git, s.headRef)).toEqual({ ok: true });
    expect(await out(s.originGit, 'rev-parse', `refs/heads/${s.headRef}`)).toBe(sha);
    expect(await remoteBranchSha(git, s.headRef)).toBe(sha);

    expect(server.log).toContain('POST /origin.git/git-receive-pack auth=OK');
    expect(server.log.some((l) => l.includes('git-upload-pack') && l.endsWith('auth=OK'))).toBe(true);
    const traced = await readFile(trace, 'utf8');
    expect(traced).toMatch(/trace: (built-in|run_command): git push/);
    expect(traced).not.toContain(TOKEN);
    expect(traced).not.toContain(BASIC);
    const config = await readFile(path.join(c.dir, '.git', 'config'), 'utf8');
    expect(config).not.toContain(BASIC);
    expect(config).not.toMatch(/extraheader/i);
    expect(await out(c.git, 'remote', 'get-url', 'origin')).toBe(`${server.url}/origin.git`);
  });

  it('redacts the token from errors and keeps it from non-network commands', async () => {
    const s = await sandbox();
    const git = createGit(s.workDir, { env: s.env, auth: { serverUrl: 'https://github.com', token: TOKEN } });
    const key = 'http.https://github.com/.extraheader';
    expect((await git(['config', '--get', key], { allowFail: true })).stdout).toBe('');
    const err = (await git(['log', '-1', TOKEN]).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^git log failed \(exit 128\)/);
    expect(err.message).not.toContain(TOKEN);
  });
});
