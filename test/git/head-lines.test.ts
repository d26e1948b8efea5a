// The lines of files at a commit (src/git/head-lines.ts) against a real repository: counted as an
// editor numbers them, for names a shell or a pathspec would misread, with two git processes for
// any number of files, and nothing for what is not a file at that commit.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linesAtCommit } from '../../src/git/head-lines.js';
import { createGit, type Git } from '../../src/git/runner.js';

const IDENTITY = {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

const FILES: Record<string, string | Buffer> = {
  'lib/language.js': Array.from({ length: 181 }, (_v, i) => `const l${i + 1} = ${i + 1};\n`).join(''),
  'no-final-newline.txt': 'one\ntwo\nthree',
  'empty.txt': '',
  'one-blank-line.txt': '\n',
  'docs/with space and ünïcødé.md': 'première\nseconde\n',
  '*.js': 'a name that is a glob\n',
  ':!lib': 'a name that is pathspec magic (all but lib/)\n',
  'crlf.txt': 'a\r\nb\r\n',
  'image.bin': Buffer.from([0x00, 0x01, 0x0a, 0xff, 0xfe, 0x00]),
};

describe('linesAtCommit', () => {
  let dir: string;
  let git: Git;
  let commit: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'head-lines-'));
    git = createGit(dir);
    await git(['init', '-q']);
    for (const [name, text] of Object.entries(FILES)) {
      await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await writeFile(path.join(dir, name), text);
    }
    await git(['add', '-A']);
    await git(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'files']);
    commit = (await git(['rev-parse', 'HEAD'])).stdout.trim();
    // The work tree moves on: the counts are the commit's, not the disk's.
    await writeFile(path.join(dir, 'lib/language.js'), 'changed after the commit\n');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('counts lines as an editor numbers them, with two git processes', async () => {
    const calls: string[][] = [];
    const counted: Git = (args, opts) => {
      calls.push(args);
      return git(args, opts);
    };
    const names = [...Object.keys(FILES), 'lib', 'missing.js', 'lib/language.js/x', 'a\nb'];
    const lines = await linesAtCommit(counted, commit, names);
    expect(Object.fromEntries(lines)).toEqual({
      'lib/language.js': 181,
      'no-final-newline.txt': 3,
      'empty.txt': 0,
      'one-blank-line.txt': 1,
      'docs/with space and ünïcødé.md': 2,
      // Names, not patterns.
      '*.js': 1,
      ':!lib': 1,
      'crlf.txt': 2,
      // Binary is counted like text: one '\n', and bytes after it.
      'image.bin': 2,
      // A folder, a missing path, a path below a file, a name with a line break: no file.
      lib: null,
      'missing.js': null,
      'lib/language.js/x': null,
      'a\nb': null,
    });
    expect(calls.map((a) => a[0])).toEqual(['cat-file', 'grep']);
  });

  it('names no file at a commit that lacks it, nor at a commit the repository does not have', async () => {
    await git(['rm', '-q', 'empty.txt']);
    await git(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'rm']);
    const after = (await git(['rev-parse', 'HEAD'])).stdout.trim();
    expect(Object.fromEntries(await linesAtCommit(git, after, ['empty.txt', 'crlf.txt']))).toEqual({
      'empty.txt': null,
      'crlf.txt': 2,
    });
    const unknown = '0123456789abcdef0123456789abcdef01234567';
    expect(Object.fromEntries(await linesAtCommit(git, unknown, ['crlf.txt']))).toEqual({ 'crlf.txt': null });
  });

  it('leaves a name with a . or .. segment unknown, and still counts the others', async () => {
    // git reads `<commit>:../x` from the folder it runs in and fails the whole batch ("outside
    // repository"): one such name from a reviewer must not turn every other check off.
    const names = ['../other/x.js', './crlf.txt', 'lib/../crlf.txt', '/etc/passwd', 'crlf.txt'];
    expect(Object.fromEntries(await linesAtCommit(git, commit, names))).toEqual({
      '../other/x.js': null,
      './crlf.txt': null,
      'lib/../crlf.txt': null,
      '/etc/passwd': null,
      'crlf.txt': 2,
    });
  });

  it('reads names from the repository root when git runs in a folder of the checkout', async () => {
    const inLib = createGit(path.join(dir, 'lib'));
    expect(
      Object.fromEntries(await linesAtCommit(inLib, commit, ['lib/language.js', 'crlf.txt', 'language.js'])),
    ).toEqual({
      'lib/language.js': 181,
      'crlf.txt': 2,
      'language.js': null,
    });
  });

  it('counts names that fill more than one command line over several git grep calls', async () => {
    // 400 files of 1,000-character names (four folders deep: a folder's name has at most 255 bytes),
    // put in the index directly: 400 KB of names, more than one call's 256 KiB.
    const blob = (await git(['hash-object', '-w', '--stdin'], { input: 'a\nb\nc\n' })).stdout.trim();
    const long = (i: number) =>
      [1, 2, 3, 4].map((d) => `${'d'.repeat(240)}${d}`).join('/') + `/${String(i).padStart(32, 'f')}`;
    const names = Array.from({ length: 400 }, (_v, i) => long(i));
    const index = names.map((n) => `100644 ${blob}\t${n}\n`).join('');
    await git(['update-index', '--add', '--index-info'], { input: index });
    const tree = (await git(['write-tree'])).stdout.trim();
    const many = (await git(['commit-tree', tree, '-m', 'long names'], { env: IDENTITY })).stdout.trim();
    const calls: string[][] = [];
    const counted: Git = (args, opts) => {
      calls.push(args);
      return git(args, opts);
    };
    const lines = await linesAtCommit(counted, many, [...names, 'lib/language.js']);
    expect(names[0]!.length).toBe(1_000);
    expect([...new Set(lines.values())]).toEqual([3, 181]);
    expect(calls.map((a) => a[0])).toEqual(['cat-file', 'grep', 'grep']);
  });

  it('starts no git for no names', async () => {
    const calls: string[][] = [];
    const counted: Git = (args, opts) => {
      calls.push(args);
      return git(args, opts);
    };
    expect((await linesAtCommit(counted, commit, [])).size).toBe(0);
    expect(calls).toEqual([]);
  });
});
