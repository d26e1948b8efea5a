// A bare origin with `main` and one PR branch, built with real git in a temp folder,
// for the contract tests of the fake GitHub (which reads PR data live from it).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export type Files = Record<string, string | null>;

export interface Origin {
  root: string;
  originDir: string;
  baseSha: string;
  headSha: string;
  /** Commits `files` on top of `branch` and pushes it, like a developer (or the action) would. */
  push(branch: string, files: Files, message?: string): Promise<string>;
  /** Points a ref of origin at a sha, as GitHub does with refs/pull/N/head for forks. */
  updateRef(ref: string, sha: string): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createOrigin(base: Files, head: Files, headRef = 'feature/planted-bug'): Promise<Origin> {
  const root = await mkdtemp(path.join(tmpdir(), 'fake-gh-origin-'));
  const home = path.join(root, 'home');
  await mkdir(home);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Dev',
    GIT_AUTHOR_EMAIL: 'dev@example.test',
    GIT_COMMITTER_NAME: 'Dev',
    GIT_COMMITTER_EMAIL: 'dev@example.test',
  };
  const work = path.join(root, 'work');
  const originDir = path.join(root, 'origin.git');
  const git = async (cwd: string, ...args: string[]): Promise<string> =>
    (await exec('git', args, { cwd, env })).stdout.trim();
  const commit = async (files: Files, message: string): Promise<string> => {
    for (const [file, content] of Object.entries(files)) {
      const full = path.join(work, file);
      if (content === null) await rm(full, { force: true });
      else {
        await mkdir(path.dirname(full), { recursive: true });
        await writeFile(full, content);
      }
    }
    await git(work, 'add', '-A');
    await git(work, 'commit', '-q', '--allow-empty', '-m', message);
    return git(work, 'rev-parse', 'HEAD');
  };
  try {
    await git(root, 'init', '-q', '--bare', '--initial-branch=main', originDir);
    await git(root, 'init', '-q', '--initial-branch=main', work);
    await git(work, 'remote', 'add', 'origin', originDir);
    const baseSha = await commit(base, 'Initial commit');
    await git(work, 'checkout', '-q', '-b', headRef);
    const headSha = await commit(head, 'Change things');
    await git(work, 'push', '-q', 'origin', 'main', headRef);
    return {
      root,
      originDir,
      baseSha,
      headSha,
      async push(branch, files, message = 'More changes') {
        await git(work, 'checkout', '-q', branch);
        const sha = await commit(files, message);
        await git(work, 'push', '-q', 'origin', branch);
        return sha;
      },
      async updateRef(ref, sha) {
        await git(root, '--git-dir', originDir, 'update-ref', ref, sha);
      },
      cleanup: () => rm(root, { recursive: true, force: true }),
    };
  } catch (e) {
    await rm(root, { recursive: true, force: true });
    throw e;
  }
}
