// SPEC §6: commits are made as github-actions[bot] unless the checkout already has an identity.
import type { Git } from './runner.js';

export const BOT_NAME = 'github-actions[bot]';
export const BOT_EMAIL = '41898282+github-actions[bot]@users.noreply.github.com';

/** Sets user.name / user.email locally where no scope configures them; returns the keys set. */
export async function ensureIdentity(git: Git): Promise<string[]> {
  const set: string[] = [];
  for (const [key, value] of [
    ['user.name', BOT_NAME],
    ['user.email', BOT_EMAIL],
  ] as const) {
    const r = await git(['config', '--get', key], { allowFail: true });
    if (r.code === 0 && r.stdout.trim() !== '') continue;
    await git(['config', '--local', key, value]);
    set.push(key);
  }
  return set;
}
