// Read-only questions about the checkout.
import type { Git } from './runner.js';

export async function isWorkTree(git: Git): Promise<boolean> {
  const r = await git(['rev-parse', '--is-inside-work-tree'], { allowFail: true });
  return r.code === 0 && r.stdout.trim() === 'true';
}

/** Every dirty path (staged, unstaged, untracked; both names of a rename), repo-relative. */
export async function statusPorcelain(git: Git): Promise<string[]> {
  const r = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  const fields = r.stdout.split('\0');
  const paths: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i] ?? '';
    if (entry.length < 4) continue;
    paths.push(entry.slice(3));
    // With -z a rename or copy is followed by its source name as a field of its own.
    if (entry[0] === 'R' || entry[0] === 'C') paths.push(fields[++i] ?? '');
  }
  return paths;
}

/** Untracked entries, ignored ones included, top-relative; a wholly untracked folder is one entry. */
export async function untrackedEntries(git: Git): Promise<string[]> {
  const r = await git(['ls-files', '-z', '--others', '--directory']);
  return r.stdout
    .split('\0')
    .filter(Boolean)
    .map((p) => p.replace(/\/$/, ''));
}

export async function headSha(git: Git): Promise<string> {
  return (await git(['rev-parse', '--verify', 'HEAD^{commit}'])).stdout.trim();
}

/** The checked-out branch name, or null when HEAD is detached. */
export async function currentBranch(git: Git): Promise<string | null> {
  const r = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], { allowFail: true });
  return r.code === 0 ? r.stdout.trim() : null;
}

export async function isShallow(git: Git): Promise<boolean> {
  return (await git(['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true';
}

/**
 * Validates a branch name with `git check-ref-format --branch` and returns it. Refuses
 * anything git would rewrite (`@{-1}`) or read as an option, so the name is used verbatim.
 */
export async function checkBranchName(git: Git, branch: string): Promise<string> {
  const bad = (why: string) => new Error(`refusing branch name ${JSON.stringify(branch)}: ${why}`);
  if (!branch || branch.startsWith('-') || branch.startsWith('+')) throw bad('not a plain branch name');
  const r = await git(['check-ref-format', '--branch', branch], { allowFail: true });
  if (r.code !== 0) throw bad(r.stderr.trim() || 'git check-ref-format refused it');
  if (r.stdout.trim() !== branch) throw bad(`git expands it to ${JSON.stringify(r.stdout.trim())}`);
  return branch;
}

/** Full sha of a commit-ish, or null when it does not name a commit. */
export async function resolveCommit(git: Git, rev: string): Promise<string | null> {
  if (rev.startsWith('-')) return null;
  const r = await git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { allowFail: true });
  return r.code === 0 ? r.stdout.trim() : null;
}
