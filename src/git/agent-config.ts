// The files agent CLIs read at start come from the base branch, not from the PR,
// before any agent runs. run-agents.ts does this on every PR, from a fork or not: a same-repo
// PR's `.claude/settings.json` or `opencode.jsonc` is as much the PR author's as a fork's.
//
// How this meets the fix commit: the restore stages the base versions (index and working
// tree), so the checkout differs from the PR head in these paths for the whole run. The
// fixer's commit must not carry that difference back to the PR, so the caller passes the
// same list as `exclude` to commitAll / squashSince: the commit keeps
// the PR's own versions, the working tree keeps the base versions for the next round.
import { literalPathspec } from './commit.js';
import type { Git } from './runner.js';
import { resolveCommit } from './state.js';

/**
 * Repo-relative files and directories the pinned agent CLIs load at start as instructions,
 * settings, MCP servers, hooks, plugins, skills or rules (what each reads: docs/security.md).
 */
export const AGENT_CONFIG_PATHS: readonly string[] = [
  // Claude Code
  'CLAUDE.md',
  'CLAUDE.local.md',
  '.claude',
  '.mcp.json',
  // Codex (AGENTS.md is OpenCode's too; .agents/skills is both CLIs' skill folder)
  'AGENTS.md',
  'AGENTS.override.md',
  '.codex',
  '.agents',
  // OpenCode
  'opencode.json',
  'opencode.jsonc',
  '.opencode',
  'CONTEXT.md',
  // Gemini CLI (.geminiignore hides files from its tools)
  'GEMINI.md',
  '.gemini',
  '.geminiignore',
];

/**
 * Top-level names beginning with one of these are agent config too: `.env`, `.env.local`, …
 * (Gemini CLI reads the checkout's `.env`; so does any dotenv loader a CLI may gain).
 */
const AGENT_CONFIG_PREFIXES: readonly string[] = ['.env'];

/**
 * AGENT_CONFIG_PATHS plus the top-level names matching AGENT_CONFIG_PREFIXES that baseSha,
 * HEAD or the index hold. Untracked files are left alone: before the run only the workflow
 * creates them (a `.env` for the tests, say), and agents do not read them (docs/security.md).
 */
export async function agentConfigPaths(git: Git, baseSha: string): Promise<string[]> {
  // gitglossary(7) pathspec: with `glob`, `*` stops at a slash, so these are the top-level names.
  const globs = AGENT_CONFIG_PREFIXES.flatMap((p) => [`:(top,glob)${p}*`, `:(top,glob)${p}*/**`]);
  const [base, head, index] = await Promise.all([
    git(['ls-tree', '--name-only', '-z', baseSha]),
    git(['ls-tree', '--name-only', '-z', 'HEAD']),
    git(['ls-files', '--cached', '-z', '--', ...globs]),
  ]);
  const names = new Set([...base.stdout.split('\0'), ...head.stdout.split('\0')]);
  for (const file of index.stdout.split('\0')) names.add(file.split('/')[0] ?? '');
  const prefixed = [...names].filter((n) => AGENT_CONFIG_PREFIXES.some((p) => n.startsWith(p))).sort();
  return [...AGENT_CONFIG_PATHS, ...prefixed.filter((n) => !AGENT_CONFIG_PATHS.includes(n))];
}

/**
 * Makes each path exactly what baseSha has (deleting it where baseSha has none, untracked
 * and ignored files included). Returns the files whose staged content now differs from HEAD.
 */
export async function restoreAgentConfigFromBase(
  git: Git,
  baseSha: string,
  paths?: readonly string[],
): Promise<string[]> {
  const base = await resolveCommit(git, baseSha);
  if (!base) throw new Error(`restore base ${baseSha} is not a commit`);
  const wanted = (paths ?? (await agentConfigPaths(git, base))).map((p) => p.replace(/\/+$/, ''));
  const specs = wanted.map(literalPathspec);
  if (specs.length === 0) return [];
  // Untracked and ignored files first: restore only knows tracked ones.
  await git(['clean', '-d', '-x', '--force', '--quiet', '--', ...specs]);
  // One restore for every path the base or the index holds: a path in neither would make
  // `git restore` refuse the whole list ("did not match any file"), and after the clean
  // nothing else is left of it.
  const present = await presentIn(git, base, specs);
  const matched = wanted.filter((p) => present.some((f) => f === p || f.startsWith(`${p}/`)));
  if (matched.length) {
    // Overlay off: a tracked file the base lacks is deleted from index and working tree.
    const args = ['restore', `--source=${base}`, '--staged', '--worktree', '--no-overlay', '--'];
    const r = await git([...args, ...matched.map(literalPathspec)], { allowFail: true });
    if (r.code !== 0) throw new Error(`restoring ${matched.join(', ')} from ${base} failed: ${r.stderr.trim()}`);
  }
  const diff = await git(['diff', '--cached', '--name-only', '-z', 'HEAD', '--', ...specs]);
  return diff.stdout.split('\0').filter(Boolean);
}

/** The files under `specs` that the base commit or the index holds. */
async function presentIn(git: Git, base: string, specs: readonly string[]): Promise<string[]> {
  const [inBase, inIndex] = await Promise.all([
    git(['ls-tree', '-r', '--name-only', '-z', base, '--', ...specs]),
    git(['ls-files', '--cached', '-z', '--', ...specs]),
  ]);
  return [...inBase.stdout.split('\0'), ...inIndex.stdout.split('\0')].filter(Boolean);
}
