// Shared setup for the git-layer tests: one fresh sandbox per test, removed afterwards.
import { execFileSync } from 'node:child_process';
import { onTestFinished } from 'vitest';
import { createGitSandbox } from '../fakes/git-sandbox.js';
import type { GitSandbox, GitSandboxOptions } from '../fakes/git-sandbox.js';

/**
 * A sandbox removed when the test that made it ends. Not a module-level afterEach: with
 * `isolate: false` (the unit loop) this module is loaded once per worker, so such a hook was
 * registered for the first test file only, and every later file left its sandboxes in /tmp.
 */
export async function sandbox(opts?: GitSandboxOptions): Promise<GitSandbox> {
  const s = await createGitSandbox(opts);
  onTestFinished(() => s.cleanup());
  return s;
}

export async function out(git: (args: string[]) => Promise<{ stdout: string }>, ...args: string[]): Promise<string> {
  return (await git(args)).stdout.trim();
}

/**
 * Git as a fixer or a verify command runs it in the checkout: plain `git`, the caller's
 * environment, none of the action's protections. Returns trimmed stdout.
 */
export function plantedGit(dir: string, env: NodeJS.ProcessEnv, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}
