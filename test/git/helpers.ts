// Shared setup for the git-layer tests: one fresh sandbox per test, removed afterwards.
import { afterEach } from 'vitest';
import { createGitSandbox } from '../fakes/git-sandbox.js';
import type { GitSandbox, GitSandboxOptions } from '../fakes/git-sandbox.js';

const open: GitSandbox[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.cleanup()));
});

export async function sandbox(opts?: GitSandboxOptions): Promise<GitSandbox> {
  const s = await createGitSandbox(opts);
  open.push(s);
  return s;
}

export async function out(git: (args: string[]) => Promise<{ stdout: string }>, ...args: string[]): Promise<string> {
  return (await git(args)).stdout.trim();
}
