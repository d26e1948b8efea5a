// The fixer runs inside the checkout and can edit .git/config (a new remote URL, a proxy,
// a CA file) to redirect the action's authenticated push. The action snapshots the local
// config before the fixer runs and puts it back afterwards.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Git } from './runner.js';

export async function guardLocalConfig(git: Git): Promise<() => Promise<boolean>> {
  const root = (await git(['rev-parse', '--show-toplevel'])).stdout.trim();
  const file = path.resolve(root, (await git(['rev-parse', '--git-path', 'config'])).stdout.trim());
  const before = await readFile(file, 'utf8');
  /** Restores the snapshot; true when the agent had changed it. */
  return async () => {
    const after = await readFile(file, 'utf8').catch(() => null);
    if (after === before) return false;
    await writeFile(file, before);
    return true;
  };
}
