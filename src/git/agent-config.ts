// SPEC §8: on a PR from another repository, the files agent CLIs read at start come from
// the base branch, not from the PR, before any agent runs.
//
// How this meets the fix commit: the restore stages the base versions (index and working
// tree), so the checkout differs from the PR head in these paths for the whole run. The
// fixer's commit must not carry that difference back to the PR, so the caller passes the
// same list as `exclude` to commitAll / squashSince: the commit keeps
// the PR's own versions, the working tree keeps the base versions for the next round.
import { literalPathspec } from './commit.js';
import type { Git } from './runner.js';
import { resolveCommit } from './state.js';

/** Repo-relative files and directories agent CLIs load as instructions or settings. */
export const AGENT_CONFIG_PATHS: readonly string[] = [
  'CLAUDE.md',
  'CLAUDE.local.md',
  '.claude',
  'AGENTS.md',
  'GEMINI.md',
  '.gemini',
  'opencode.json',
  '.opencode',
  '.mcp.json',
  '.codex',
];

/**
 * Makes each path exactly what baseSha has (deleting it where baseSha has none, untracked
 * and ignored files included). Returns the files whose staged content now differs from HEAD.
 */
export async function restoreAgentConfigFromBase(
  git: Git,
  baseSha: string,
  paths: readonly string[] = AGENT_CONFIG_PATHS,
): Promise<string[]> {
  const base = await resolveCommit(git, baseSha);
  if (!base) throw new Error(`restore base ${baseSha} is not a commit`);
  const specs = paths.map((p) => literalPathspec(p.replace(/\/+$/, '')));
  if (specs.length === 0) return [];
  // Untracked and ignored files first: restore only knows tracked ones.
  await git(['clean', '-d', '-x', '--force', '--quiet', '--', ...specs]);
  for (const spec of specs) {
    // Overlay off: a tracked file the base lacks is deleted from index and working tree.
    const r = await git(['restore', `--source=${base}`, '--staged', '--worktree', '--no-overlay', '--', spec], { allowFail: true });
    if (r.code !== 0 && !/did not match any file/.test(r.stderr)) {
      throw new Error(`restoring ${spec} from ${base} failed: ${r.stderr.trim()}`);
    }
  }
  const diff = await git(['diff', '--cached', '--name-only', '-z', 'HEAD', '--', ...specs]);
  return diff.stdout.split('\0').filter(Boolean);
}
