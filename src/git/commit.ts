// Making the round's fix commit.
import type { Git } from './runner.js';
import { resolveCommit } from './state.js';

export interface CommitOptions {
  /**
   * Paths (files or directories, repo-relative) kept out of the commit: their staged
   * content is reset to what the parent commit has, the working tree keeps its version.
   * Used for agent config restored from the base branch on fork PRs (agent-config.ts).
   */
  exclude?: readonly string[];
}

/** Stages everything and commits; returns the new sha, or null when nothing changed. */
export async function commitAll(git: Git, message: string, opts: CommitOptions = {}): Promise<string | null> {
  await stageAll(git, 'HEAD', opts.exclude);
  return commitIfStaged(git, message);
}

/**
 * Folds every commit after baseSha, plus uncommitted leftovers, into one commit whose
 * parent is baseSha. Nothing has been pushed yet, so no remote history is rewritten.
 * Returns null (HEAD left at baseSha) when the result's tree equals baseSha's.
 */
export async function squashSince(
  git: Git,
  baseSha: string,
  message: string,
  opts: CommitOptions = {},
): Promise<string | null> {
  const base = await resolveCommit(git, baseSha);
  if (!base) throw new Error(`squash base ${baseSha} is not a commit`);
  const isAncestor = await git(['merge-base', '--is-ancestor', base, 'HEAD'], { allowFail: true });
  if (isAncestor.code !== 0) throw new Error(`squash base ${base} is not an ancestor of HEAD`);
  // Soft reset moves HEAD back to the base and keeps index and working tree as they are.
  await git(['reset', '--quiet', '--soft', base]);
  await stageAll(git, base, opts.exclude);
  return commitIfStaged(git, message);
}

export async function commitMessage(git: Git, ref: string): Promise<string> {
  if (ref.startsWith('-')) throw new Error(`refusing ref ${JSON.stringify(ref)}`);
  // Anyone who pushes to the PR writes this message: the look-behind keeps a long run of newlines
  // inside it linear (a plain /\n+$/ retries from each one; see report/format.ts's fenced()).
  return (await git(['log', '-1', '--format=%B', ref, '--'])).stdout.replace(/(?<!\n)\n+$/, '');
}

async function stageAll(git: Git, parent: string, exclude: readonly string[] = []): Promise<void> {
  await git(['add', '--all']);
  if (exclude.length > 0) {
    // `reset <commit> -- paths` also drops index entries the parent lacks, so a new
    // excluded file stays untracked instead of entering the commit.
    await git(['reset', '--quiet', parent, '--', ...exclude.map(literalPathspec)]);
  }
}

async function commitIfStaged(git: Git, message: string): Promise<string | null> {
  const diff = await git(['diff', '--cached', '--quiet', '--no-ext-diff', '--no-textconv'], { allowFail: true });
  if (diff.code === 0) return null;
  if (diff.code !== 1) throw new Error(`git diff --cached failed: ${diff.stderr.trim()}`);
  // --no-verify: hooks are also disabled by the runner; this keeps intent explicit.
  await git(['commit', '--quiet', '--no-verify', '--cleanup=verbatim', '--file=-'], { input: ensureNewline(message) });
  return (await git(['rev-parse', 'HEAD'])).stdout.trim();
}

/** Pathspec matched from the repo root, with no glob magic (file names are data). */
export function literalPathspec(p: string): string {
  return `:(top,literal)${p}`;
}

function ensureNewline(s: string): string {
  return s.endsWith('\n') ? s : `${s}\n`;
}
