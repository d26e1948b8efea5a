// SPEC §6: commits are made as github-actions[bot] unless the checkout or the runner user already has an identity.
import type { Git } from './runner.js';

export const BOT_NAME = 'github-actions[bot]';
export const BOT_EMAIL = '41898282+github-actions[bot]@users.noreply.github.com';

/**
 * Makes the checkout's local config carry user.name / user.email: the value any scope sets
 * (a workflow's `git config --global user.name …`), else the bot's. Later commands read no
 * global or system config (isolation.ts), so this copy, made before any agent runs, is what
 * the fix commits use. Returns the keys written.
 */
export async function ensureIdentity(git: Git): Promise<string[]> {
  const set: string[] = [];
  for (const [key, fallback] of [
    ['user.name', BOT_NAME],
    ['user.email', BOT_EMAIL],
  ] as const) {
    const local = await git(['config', '--local', '--get', key], { allowFail: true });
    if (local.code === 0 && local.stdout.trim() !== '') continue;
    const any = await git(['config', '--get', key], { allowFail: true, userScopes: true });
    const value = any.code === 0 && any.stdout.trim() !== '' ? any.stdout.trim() : fallback;
    await git(['config', '--local', key, value]);
    set.push(key);
  }
  return set;
}
