// A throwaway git world for e2e tests and the demo: a bare `origin.git`, a clone, a small
// Node project on `main`, and a PR branch whose one commit plants a bug. No vitest here.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createGit } from '../../src/git/runner.js';
import type { Git } from '../../src/git/runner.js';

/** File contents by repo-relative path; null deletes the file. */
export type FileChanges = Record<string, string | null>;

export interface GitSandboxOptions {
  /** Files on `main` (default: the sample project below). */
  baseFiles?: FileChanges;
  /** The PR commit's changes on top of main (default: `add` returns a - b). */
  prChanges?: FileChanges;
  baseRef?: string;
  headRef?: string;
  prNumber?: number;
  prMessage?: string;
  /** Written to the temp HOME's .gitconfig; default none, like a fresh Actions runner. */
  identity?: { name: string; email: string };
  /** owner/name: origin lives at `<root>/<owner>/<name>.git`, the way a server lays out URLs. */
  repoFullName?: string;
  /** The PR comes from a fork `<root>/<owner>/<name>.git`: the head branch lives there, not in origin. */
  forkOwner?: string;
  /** Empty commits before the base commit (one git fast-import), for history deeper than a shallow fetch. */
  baseHistory?: number;
}

interface CloneOptions {
  /** Shallow fetch, as actions/checkout does (depth 1 by default there). */
  depth?: number;
  /** Persist this token as actions/checkout v4/v5 do (http.<server>/.extraheader). */
  persistToken?: string;
}

export interface Clone {
  dir: string;
  git: Git;
}

export interface GitSandbox {
  root: string;
  originDir: string;
  /** file:// URL of origin (local paths would ignore --depth). */
  originUrl: string;
  workDir: string;
  /** What the action's git children get: PATH, HOME, and the isolation switches. */
  env: NodeJS.ProcessEnv;
  /** `env` plus an author/committer identity, for commits made by the sandbox itself. */
  devEnv: NodeJS.ProcessEnv;
  baseRef: string;
  headRef: string;
  baseSha: string;
  headSha: string;
  prNumber: number;
  mergeRef: string;
  mergeSha: string;
  /** Git in workDir (checked out on headRef). */
  git: Git;
  /** Git in origin.git (bare). */
  originGit: Git;
  /** The fork the PR comes from, when forkOwner was given. */
  fork: { fullName: string; dir: string; git: Git } | null;
  /** A human pushing to a branch of origin meanwhile; returns the new branch sha. */
  pushFromAnotherClone(changes: FileChanges, opts?: { branch?: string; message?: string }): Promise<string>;
  /** A fresh clone like actions/checkout: detached at a sha or refs/pull/..., on a branch for a branch name. */
  cloneAt(ref: string, opts?: CloneOptions): Promise<Clone>;
  /** Replaces the checkout in `dir` with a fresh one like cloneAt's (e.g. a shallow clone of the head only). */
  recloneInto(dir: string, ref: string, opts?: CloneOptions): Promise<Git>;
  cleanup(): Promise<void>;
}

export const SAMPLE_PROJECT: FileChanges = {
  'package.json': `${JSON.stringify({ name: 'sample-project', version: '1.0.0', private: true, scripts: { test: 'node test.js' } }, null, 2)}\n`,
  'src/math.js': 'function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n',
  'test.js':
    "const assert = require('node:assert');\nconst { add } = require('./src/math.js');\n\n" +
    "assert.strictEqual(add(2, 3), 5, 'add(2, 3) should be 5');\nconsole.log('ok');\n",
  'README.md': '# sample-project\n\nA tiny project for pr-review-loop tests.\n',
  '.gitignore': 'node_modules/\n',
};

export const PLANTED_BUG: FileChanges = {
  'src/math.js': 'function add(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add };\n',
};

const DEV_IDENTITY = { name: 'Sandbox Dev', email: 'dev@sandbox.test' };

/**
 * `count` new text files of `lines` lines each under `dir`, for big PRs: pass the result as
 * prChanges (spread into it) and the whole lot lands in the one PR commit.
 */
export function generatedFiles(count: number, lines: number, dir = 'gen'): FileChanges {
  const width = String(count).length;
  const files: FileChanges = {};
  for (let i = 0; i < count; i++) {
    const body = Array.from({ length: lines }, (_v, k) => `export const v${i}_${k} = ${k};`).join('\n');
    files[`${dir}/file-${String(i).padStart(width, '0')}.ts`] = `${body}\n`;
  }
  return files;
}

export async function createGitSandbox(opts: GitSandboxOptions = {}): Promise<GitSandbox> {
  const root = await mkdtemp(path.join(tmpdir(), 'git-sandbox-'));
  try {
    return await build(root, opts);
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    throw err;
  }
}

async function build(root: string, opts: GitSandboxOptions): Promise<GitSandbox> {
  const baseRef = opts.baseRef ?? 'main';
  const headRef = opts.headRef ?? 'feature/planted-bug';
  const prNumber = opts.prNumber ?? 1;
  const mergeRef = `refs/pull/${prNumber}/merge`;
  const home = path.join(root, 'home');
  await mkdir(home);
  const gitconfig = ['[init]', '\tdefaultBranch = main', '[advice]', '\tdetachedHead = false'];
  if (opts.identity) gitconfig.push('[user]', `\tname = ${opts.identity.name}`, `\temail = ${opts.identity.email}`);
  await writeFile(path.join(home, '.gitconfig'), `${gitconfig.join('\n')}\n`);
  const env = sandboxEnv(home);
  const devEnv = { ...env, ...identityEnv(DEV_IDENTITY) };

  const originDir = opts.repoFullName ? path.join(root, `${opts.repoFullName}.git`) : path.join(root, 'origin.git');
  await mkdir(path.dirname(originDir), { recursive: true });
  const originUrl = pathToFileURL(originDir).href;
  await createGit(root, { env })(['init', '--quiet', '--bare', `--initial-branch=${baseRef}`, originDir]);
  const originGit = createGit(originDir, { env });

  // Build history in a seed clone, so workDir starts as a plain clone with clean reflogs.
  const seed = await initClone(path.join(root, 'seed'), originUrl, devEnv);
  if (opts.baseHistory) await importHistory(seed, baseRef, opts.baseHistory);
  await seed(['checkout', '--quiet', ...(opts.baseHistory ? [] : ['-b']), baseRef]);
  const baseSha = await commitChanges(
    seed,
    path.join(root, 'seed'),
    opts.baseFiles ?? SAMPLE_PROJECT,
    'Initial sample project',
  );
  await seed(['checkout', '--quiet', '-b', headRef]);
  const headSha = await commitChanges(
    seed,
    path.join(root, 'seed'),
    opts.prChanges ?? PLANTED_BUG,
    opts.prMessage ?? 'Refactor add',
  );
  // GitHub's test-merge commit for the PR, as pull_request workflows check it out.
  await seed(['checkout', '--quiet', '--detach', baseSha]);
  await seed(['merge', '--quiet', '--no-ff', '--no-edit', '-m', `Merge ${headSha} into ${baseSha}`, headRef]);
  const mergeSha = (await seed(['rev-parse', 'HEAD'])).stdout.trim();
  const fork = opts.forkOwner ? await createFork(root, originDir, opts.forkOwner, env) : null;
  // A fork's head branch lives in the fork; the base repository only has refs/pull/N/head.
  await seed([
    'push',
    '--quiet',
    'origin',
    `${baseRef}:refs/heads/${baseRef}`,
    ...(fork ? [] : [`${headRef}:refs/heads/${headRef}`]),
  ]);
  await seed(['push', '--quiet', 'origin', `${headSha}:refs/pull/${prNumber}/head`, `${mergeSha}:${mergeRef}`]);
  if (fork)
    await seed([
      'push',
      '--quiet',
      pathToFileURL(fork.dir).href,
      `${baseRef}:refs/heads/${baseRef}`,
      `${headRef}:refs/heads/${headRef}`,
    ]);

  const workDir = path.join(root, 'work');
  await createGit(root, { env })([
    'clone',
    '--quiet',
    '--branch',
    headRef,
    fork ? pathToFileURL(fork.dir).href : originUrl,
    workDir,
  ]);

  let clones = 0;
  const sandbox: GitSandbox = {
    root,
    originDir,
    originUrl,
    workDir,
    env,
    devEnv,
    baseRef,
    headRef,
    baseSha,
    headSha,
    prNumber,
    mergeRef,
    mergeSha,
    git: createGit(workDir, { env }),
    originGit,
    fork,
    async pushFromAnotherClone(changes, o = {}) {
      const branch = o.branch ?? headRef;
      const dir = path.join(root, `human-${++clones}`);
      const git = createGit(root, { env: devEnv });
      await git(['clone', '--quiet', '--branch', branch, originUrl, dir]);
      const sha = await commitChanges(createGit(dir, { env: devEnv }), dir, changes, o.message ?? 'Human change');
      await createGit(dir, { env: devEnv })(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`]);
      return sha;
    },
    async cloneAt(ref, o = {}) {
      const dir = path.join(root, `checkout-${++clones}`);
      return { dir, git: await checkoutLike(dir, originUrl, env, ref, o) };
    },
    async recloneInto(dir, ref, o = {}) {
      await rm(dir, { recursive: true, force: true });
      return checkoutLike(dir, originUrl, env, ref, o);
    },
    async cleanup() {
      await rm(root, { recursive: true, force: true });
    },
  };
  return sandbox;
}

async function createFork(
  root: string,
  originDir: string,
  owner: string,
  env: NodeJS.ProcessEnv,
): Promise<{ fullName: string; dir: string; git: Git }> {
  const name = path.basename(originDir, '.git');
  const dir = path.join(root, owner, `${name}.git`);
  await mkdir(path.dirname(dir), { recursive: true });
  await createGit(root, { env })(['init', '--quiet', '--bare', dir]);
  return { fullName: `${owner}/${name}`, dir, git: createGit(dir, { env }) };
}

/** Explicit and minimal: this machine exports GIT_SSL_CAINFO and friends; none leak in. */
function sandboxEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    TMPDIR: tmpdir(),
  };
}

function identityEnv(id: { name: string; email: string }): NodeJS.ProcessEnv {
  return {
    GIT_AUTHOR_NAME: id.name,
    GIT_AUTHOR_EMAIL: id.email,
    GIT_COMMITTER_NAME: id.name,
    GIT_COMMITTER_EMAIL: id.email,
  };
}

async function initClone(dir: string, url: string, env: NodeJS.ProcessEnv): Promise<Git> {
  await createGit(path.dirname(dir), { env })(['init', '--quiet', dir]);
  const git = createGit(dir, { env });
  await git(['remote', 'add', 'origin', url]);
  return git;
}

/** `count` empty commits on `branch` in one `git fast-import` process (a process per commit would be slow). */
async function importHistory(git: Git, branch: string, count: number): Promise<void> {
  const stream: string[] = [];
  for (let i = 1; i <= count; i++) {
    const message = `History ${i}\n`;
    const who = `${DEV_IDENTITY.name} <${DEV_IDENTITY.email}> ${1_700_000_000 + i} +0000`;
    stream.push(`commit refs/heads/${branch}`, `author ${who}`, `committer ${who}`);
    stream.push(`data ${Buffer.byteLength(message)}`, message);
  }
  await git(['fast-import', '--quiet'], { input: `${stream.join('\n')}\n` });
}

/** Writes/deletes files in dir, commits them all, returns the sha. */
export async function commitChanges(git: Git, dir: string, changes: FileChanges, message: string): Promise<string> {
  await applyChanges(dir, changes);
  await git(['add', '--all']);
  await git(['commit', '--quiet', '--allow-empty', '-m', message]);
  return (await git(['rev-parse', 'HEAD'])).stdout.trim();
}

export async function applyChanges(dir: string, changes: FileChanges): Promise<void> {
  for (const [rel, content] of Object.entries(changes)) {
    const file = path.join(dir, rel);
    if (content === null) {
      await rm(file, { recursive: true, force: true });
    } else {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
    }
  }
}

// Mirrors actions/checkout: init, fetch one ref (optionally shallow), check it out.
async function checkoutLike(
  dir: string,
  url: string,
  env: NodeJS.ProcessEnv,
  ref: string,
  o: CloneOptions,
): Promise<Git> {
  const git = await initClone(dir, url, env);
  const depth = o.depth ? [`--depth=${o.depth}`] : [];
  const fetch = ['fetch', '--quiet', '--no-tags', '--no-recurse-submodules', ...depth, 'origin'];
  if (/^[0-9a-f]{40}$/.test(ref)) {
    await git([...fetch, `+${ref}:refs/remotes/origin/checkout`]);
    await git(['checkout', '--quiet', '--force', '--detach', ref]);
  } else if (ref.startsWith('refs/pull/')) {
    const local = ref.replace(/^refs\/pull\//, 'refs/remotes/pull/');
    await git([...fetch, `+${ref}:${local}`]);
    await git(['checkout', '--quiet', '--force', '--detach', local]);
  } else {
    const branch = ref.replace(/^refs\/heads\//, '');
    await git([...fetch, `+refs/heads/${branch}:refs/remotes/origin/${branch}`]);
    await git(['checkout', '--quiet', '--force', '-B', branch, `refs/remotes/origin/${branch}`]);
  }
  if (o.persistToken) {
    const basic = Buffer.from(`x-access-token:${o.persistToken}`).toString('base64');
    await git(['config', '--local', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${basic}`]);
  }
  return git;
}
