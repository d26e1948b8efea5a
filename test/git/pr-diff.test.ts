// The PR's files and diff from the checkout (src/git/merge-base.ts, pr-diff.ts, pr-changes.ts):
// real repositories, shallow clones like actions/checkout's, and an authenticated HTTP origin.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureMergeBase } from '../../src/git/merge-base.js';
import { readPrChanges } from '../../src/git/pr-changes.js';
import { listChangedFiles, patchesOf } from '../../src/git/pr-diff.js';
import { createGit, GitError, type Git } from '../../src/git/runner.js';
import { generatedFiles, SAMPLE_PROJECT } from '../fakes/git-sandbox.js';
import { startGitHttpServer, type GitHttpServer } from './git-http-server.js';
import { out, sandbox } from './helpers.js';

const BINARY = Buffer.from([0, 1, 2, 3, 0, 255]).toString('latin1');
const BIG_MODULE = `${Array.from({ length: 40 }, (_v, i) => `export const line${i} = ${i};`).join('\n')}\n`;

/** A PR that adds, modifies, removes, renames (with an edit), adds a binary file and a non-ASCII name. */
const MIXED_PR = {
  baseFiles: { ...SAMPLE_PROJECT, 'docs/old name.md': `${'stable text\n'.repeat(20)}`, 'lib/gone.js': 'x\n' },
  prChanges: {
    'src/math.js': 'function add(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add };\n',
    'docs/old name.md': null,
    'docs/new name.md': `${'stable text\n'.repeat(20)}one more\n`,
    'lib/gone.js': null,
    'assets/logo.bin': BINARY,
    'src/café.js': 'export const café = 1;\n',
  },
};

describe('listChangedFiles and patchesOf', () => {
  it('reads status, renames, counts and binary files from git', async () => {
    const s = await sandbox(MIXED_PR);
    const files = await listChangedFiles(s.git, { from: s.baseSha, to: s.headSha });
    expect(files).toEqual([
      { filename: 'assets/logo.bin', status: 'added', additions: 0, deletions: 0, binary: true },
      {
        filename: 'docs/new name.md',
        previousFilename: 'docs/old name.md',
        status: 'renamed',
        additions: 1,
        deletions: 0,
      },
      { filename: 'lib/gone.js', status: 'removed', additions: 0, deletions: 1 },
      { filename: 'src/café.js', status: 'added', additions: 1, deletions: 0 },
      { filename: 'src/math.js', status: 'modified', additions: 1, deletions: 1 },
    ]);
  });

  it('gives each file its own patch, for all files or a chosen few (renames stay renames)', async () => {
    const s = await sandbox(MIXED_PR);
    const range = { from: s.baseSha, to: s.headSha };
    const files = await listChangedFiles(s.git, range);
    const all = (await patchesOf(s.git, range, files, true)).patches;
    expect([...all.keys()]).toEqual(files.map((f) => f.filename));
    expect(all.get('assets/logo.bin')).toMatch(/^diff --git a\/assets\/logo\.bin b\/assets\/logo\.bin\n/);
    expect(all.get('assets/logo.bin')).toMatch(/\nBinary files \/dev\/null and b\/assets\/logo\.bin differ\n$/);
    expect(all.get('src/café.js')).toContain('+++ b/src/café.js');
    expect(all.get('src/math.js')).toContain('+  return a - b;');
    const full = (await s.git(['-c', 'core.quotePath=false', 'diff', '--no-color', '-M', s.baseSha, s.headSha])).stdout;
    expect([...all.values()].join('')).toBe(full);

    const some = (
      await patchesOf(
        s.git,
        range,
        files.filter((f) => f.filename !== 'src/math.js'),
      )
    ).patches;
    expect([...some.keys()].sort()).toEqual(['assets/logo.bin', 'docs/new name.md', 'lib/gone.js', 'src/café.js']);
    const renamed = some.get('docs/new name.md');
    expect(renamed).toMatch(/^diff --git a\/docs\/old name\.md b\/docs\/new name\.md\nsimilarity index /);
    expect(renamed).toContain('\nrename from docs/old name.md\nrename to docs/new name.md\n');
  });

  it('ignores a checkout config that would change the output (external diff, no prefix, no renames)', async () => {
    const s = await sandbox(MIXED_PR);
    const config = { 'diff.external': 'false', 'diff.noprefix': 'true', 'diff.renames': 'false', 'diff.context': '0' };
    for (const [k, v] of Object.entries(config)) await s.git(['config', k, v]);
    const range = { from: s.baseSha, to: s.headSha };
    const all = (await patchesOf(s.git, range, await listChangedFiles(s.git, range), true)).patches;
    expect(all.get('docs/new name.md')).toContain('rename from docs/old name.md');
    // Prefixes a/ and b/, and three lines of context: the hunk covers all five lines of the file.
    expect(all.get('src/math.js')).toContain('--- a/src/math.js\n+++ b/src/math.js\n@@ -1,5 +1,5 @@\n function');
  });

  it("leaves out only the file whose patch is over the runner's output cap, instead of failing", async () => {
    const minified = `${'x'.repeat(5000)}\n`;
    const s = await sandbox({ prChanges: { ...generatedFiles(6, 3, 'src'), 'dist/app.min.js': minified } });
    // The runner's cap is 64 MB; this git throws what the runner throws, past 2,000 characters.
    const capped: Git = async (args, opts) => {
      const r = await s.git(args, opts);
      if (r.stdout.length <= 2000) return r;
      throw new GitError('git diff failed (exit 128): stdout maxBuffer length exceeded', 'diff', r);
    };
    const range = { from: s.baseSha, to: s.headSha };
    const files = await listChangedFiles(s.git, range);
    const r = await patchesOf(capped, range, files, true);
    expect(r.tooLarge).toEqual(['dist/app.min.js']);
    const rest = files.map((f) => f.filename).filter((n) => n !== 'dist/app.min.js');
    expect([...r.patches.keys()].sort()).toEqual(rest);
    const other: Git = async () => {
      const result = { code: 128, stdout: '', stderr: 'fatal: bad object' };
      throw new GitError('git diff failed (exit 128): fatal: bad object', 'diff', result);
    };
    await expect(patchesOf(other, range, files)).rejects.toThrow(/bad object/);
  });
});

describe('ensureMergeBase', () => {
  it('finds the merge base at once in a full clone, fetching nothing', async () => {
    const s = await sandbox();
    const c = await s.cloneAt(s.mergeRef);
    expect(await ensureMergeBase(c.git, s.baseSha, s.headSha)).toEqual({ mergeBase: s.baseSha, fetched: [] });
  });

  it('fetches the base into a depth-1 clone of the head and deepens it until they meet, staying shallow', async () => {
    // 120 commits of history before the base: more than the action needs to fetch.
    const s = await sandbox({ baseHistory: 120 });
    // The base branch moves on after the PR forked; the PR gets another commit too.
    const baseTip = await s.pushFromAnotherClone({ 'CHANGELOG.md': 'later\n' }, { branch: s.baseRef });
    const head = await s.pushFromAnotherClone({ 'notes.md': 'more\n' });
    const c = await s.cloneAt(s.headRef, { depth: 1 });
    expect((await c.git(['cat-file', '-e', `${baseTip}^{commit}`], { allowFail: true })).code).not.toBe(0);

    const r = await ensureMergeBase(c.git, baseTip, head);
    expect(r.mergeBase).toBe(s.baseSha);
    const [b, h] = [baseTip.slice(0, 12), head.slice(0, 12)];
    expect(r.fetched).toEqual([`--depth=50 ${b}`, `--deepen=50 ${b} ${h}`]);
    expect(await out(c.git, 'rev-parse', '--is-shallow-repository')).toBe('true');
    expect(Number(await out(c.git, 'rev-list', '--count', '--all'))).toBeLessThan(120);
    // Nothing but the fetch: no ref, no FETCH_HEAD left behind.
    const refs = await out(c.git, 'for-each-ref', '--format=%(refname)');
    expect(refs).toBe(`refs/heads/${s.headRef}\nrefs/remotes/origin/${s.headRef}`);
  });

  it('fetches a missing base into a complete clone without making it shallow', async () => {
    const s = await sandbox();
    const c = await s.cloneAt(s.headRef);
    const baseTip = await s.pushFromAnotherClone({ 'CHANGELOG.md': 'later\n' }, { branch: s.baseRef });
    const r = await ensureMergeBase(c.git, baseTip, s.headSha);
    expect(r).toEqual({ mergeBase: s.baseSha, fetched: [`full ${baseTip.slice(0, 12)}`] });
    expect(await out(c.git, 'rev-parse', '--is-shallow-repository')).toBe('false');
  });

  describe('through an origin that demands the token', () => {
    let server: GitHttpServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    it('authenticates the fetch from the environment only, writing the token nowhere', async () => {
      const TOKEN = 'ghs_mergeBaseToken123';
      const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
      const s = await sandbox();
      server = await startGitHttpServer(s.root, TOKEN, s.env);
      const c = await s.cloneAt(s.headRef, { depth: 1 });
      await c.git(['remote', 'set-url', 'origin', `${server.url}/origin.git`]);
      const anonymous = createGit(c.dir, { env: s.env });
      await expect(ensureMergeBase(anonymous, s.baseSha, s.headSha)).rejects.toThrow(/git fetch failed/);

      const git = createGit(c.dir, { env: s.env, auth: { serverUrl: server.url, token: TOKEN } });
      expect((await ensureMergeBase(git, s.baseSha, s.headSha)).mergeBase).toBe(s.baseSha);
      expect(server.log.some((l) => l.includes('git-upload-pack') && l.endsWith('auth=OK'))).toBe(true);
      const config = await readFile(path.join(c.dir, '.git', 'config'), 'utf8');
      expect(config).not.toContain(TOKEN);
      expect(config).not.toContain(BASIC);
      const plain = createGit(c.dir, { env: s.env });
      const args = ['grep', '--no-index', '-l', '-e', TOKEN, '-e', BASIC, '--', '.git'];
      const grep = await plain(args, { allowFail: true });
      expect(grep.stdout).toBe('');
    });
  });
});

describe('readPrChanges', () => {
  const budget = { maxLines: 4000, maxChars: 200_000 };

  it('keeps the whole diff in git order when it fits', async () => {
    const s = await sandbox(MIXED_PR);
    const r = await readPrChanges(s.git, s, { budget, threadPaths: new Set() });
    expect(r.sampled).toBe(false);
    const plain = await s.git(['-c', 'core.quotePath=false', 'diff', '--no-color', '-M', s.baseSha, s.headSha]);
    expect(r.diff).toBe(plain.stdout);
    expect(r.files.every((f) => f.inDiff === 'full')).toBe(true);
  });

  it('samples a diff over the budget: thread files first, then the smallest, the cut file last', async () => {
    const s = await sandbox({
      prChanges: { 'src/math.js': 'module.exports = {};\n', ...generatedFiles(3, 40, 'mod'), 'lib/big.js': BIG_MODULE },
    });
    const threadPaths = new Set(['mod/file-2.ts']);
    const r = await readPrChanges(s.git, s, { budget: { maxLines: 100, maxChars: 200_000 }, threadPaths });
    expect(r.sampled).toBe(true);
    const shown = r.diff
      .split('\n')
      .filter((l) => l.startsWith('diff --git '))
      .map((l) => l.split(' b/')[1]);
    expect(shown).toEqual(['mod/file-2.ts', 'src/math.js', 'lib/big.js']);
    expect(r.diff.startsWith('[large-diff sampled: 2 of 5 changed files in full, 1 in part, 2 omitted')).toBe(true);
    expect(r.diff.split('\n').length).toBeLessThanOrEqual(100 + 4);
    expect(Object.fromEntries(r.files.map((f) => [f.filename, f.inDiff]))).toEqual({
      'lib/big.js': 'partial',
      'mod/file-0.ts': 'omitted',
      'mod/file-1.ts': 'omitted',
      'mod/file-2.ts': 'full',
      'src/math.js': 'full',
    });
  });

  it('applies the path filter to the files and the diff', async () => {
    const s = await sandbox(MIXED_PR);
    const r = await readPrChanges(s.git, s, { budget, keep: (f) => f.startsWith('src/'), threadPaths: new Set() });
    expect(r.files.map((f) => f.filename)).toEqual(['src/café.js', 'src/math.js']);
    expect(r.sampled).toBe(false);
    expect(r.diff.split('\n').filter((l) => l.startsWith('diff --git '))).toEqual([
      'diff --git a/src/café.js b/src/café.js',
      'diff --git a/src/math.js b/src/math.js',
    ]);
  });
});
