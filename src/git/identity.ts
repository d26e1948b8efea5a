// Commits are made as github-actions[bot] unless the checkout or the runner user already has an identity.
import type { Git } from './runner.js';

export const BOT_NAME = 'github-actions[bot]';
export const BOT_EMAIL = '41898282+github-actions[bot]@users.noreply.github.com';

const KEYS = { 'user.name': BOT_NAME, 'user.email': BOT_EMAIL } as const;
const KEY_PATTERN = '^user\\.(name|email)$';

/**
 * Makes the checkout's local config carry user.name / user.email: the value any scope sets
 * (a workflow's `git config --global user.name …`), else the bot's. Later commands read no
 * global or system config (isolation.ts), so this copy, made before any agent runs, is what
 * the fix commits use. Returns the keys written.
 */
export async function ensureIdentity(git: Git): Promise<string[]> {
  const [local, any] = await Promise.all([
    git(['config', '--local', '-z', '--get-regexp', KEY_PATTERN], { allowFail: true }),
    git(['config', '-z', '--get-regexp', KEY_PATTERN], { allowFail: true, userScopes: true }),
  ]);
  const have = valuesOf(local.stdout);
  const found = valuesOf(any.stdout);
  const set: string[] = [];
  for (const [key, fallback] of Object.entries(KEYS)) {
    if (have.get(key)) continue;
    await git(['config', '--local', key, found.get(key) || fallback]);
    set.push(key);
  }
  return set;
}

/**
 * `git config -z --get-regexp` output: "key NL value NUL" per entry (git-config(1) -z). The last
 * value of a key wins, as for `git config --get`; blanks count as unset.
 */
function valuesOf(out: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const entry of out.split('\0')) {
    const nl = entry.indexOf('\n');
    if (nl < 0) continue;
    const value = entry.slice(nl + 1).trim();
    if (value) values.set(entry.slice(0, nl).toLowerCase(), value);
  }
  return values;
}
