// actions/checkout persists its token in the checkout's git config (v4/v5: an
// http.<url>.extraheader; v6: the same header in a file pulled in by includeIf.<cond>.path).
// With `submodules: true` it writes the header into every submodule's config as well
// (.git/modules/<name>/config, nested ones under .git/modules/<a>/modules/<b>/), and a worktree
// may carry its own config.worktree. Agents, verify commands and hooks run in that checkout and
// could read any of them, so every one is cleaned before the first of them starts; the action
// authenticates its own fetch and push through GitAuth instead.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Git } from './runner.js';

const EXTRAHEADER = String.raw`^http\.(.*\.)?extraheader$`;
const INCLUDE = String.raw`^include(if\..*)?\.path$`;
const REMOTE_URL = String.raw`^remote\..*\.(push)?url$`;

/**
 * Removes every persisted credential from every config file of the repository (its own, each
 * worktree's, each submodule's at any depth, and the files they include); returns what it removed:
 * the key, and for any file but the repository's own config, where it was.
 */
export async function stripPersistedCredentials(git: Git): Promise<string[]> {
  const common = await git(['rev-parse', '--path-format=absolute', '--git-common-dir']);
  const commonDir = path.resolve(common.stdout.trim());
  const removed: string[] = [];
  for (const file of await configFiles(commonDir)) {
    const own = file === path.join(commonDir, 'config');
    const where = own ? '' : ` (in ${path.relative(path.dirname(commonDir), file)})`;
    for (const name of await stripFile(git, file)) removed.push(`${name}${where}`);
  }
  return removed;
}

/** The repository's config, its config.worktree, each worktree's, and each submodule's, recursively. */
async function configFiles(gitDir: string): Promise<string[]> {
  const files = [path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree')];
  for (const worktree of await subdirs(path.join(gitDir, 'worktrees'))) {
    files.push(path.join(worktree, 'config.worktree'));
  }
  // A submodule named a/b has its git dir at modules/a/b: any folder under modules/ holding a
  // config file is one, and its own submodules sit under its modules/ folder (found the same way).
  const walk = async (dir: string): Promise<void> => {
    for (const sub of await subdirs(dir)) {
      if ((await readdir(sub)).includes('config')) files.push(...(await configFiles(sub)));
      else await walk(sub);
    }
  };
  await walk(path.join(gitDir, 'modules'));
  return files;
}

async function subdirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => path.join(dir, e.name));
}

async function stripFile(git: Git, file: string): Promise<string[]> {
  const scope = ['--file', file];
  const removed: string[] = [];
  for (const name of await configNames(git, scope, EXTRAHEADER)) {
    await git(['config', ...scope, '--unset-all', name]);
    removed.push(name);
  }
  removed.push(...(await stripIncludedHeaders(git, file)));
  removed.push(...(await stripRemoteUserinfo(git, file)));
  return removed;
}

/**
 * Include entries whose target holds an extraheader: empty the target, drop the entry.
 * A relative include is resolved against the including file's directory.
 */
async function stripIncludedHeaders(git: Git, file: string): Promise<string[]> {
  const scope = ['--file', file];
  const removed: string[] = [];
  const raw = await configEntries(git, scope, INCLUDE);
  // --type=path expands "~/" with the child's HOME, exactly as git would when including.
  const expanded = await configEntries(git, [...scope, '--type=path'], INCLUDE);
  for (const [i, [name, value]] of raw.entries()) {
    const target = path.resolve(path.dirname(file), expanded[i]?.[1] ?? value);
    const headers = await configNames(git, ['--file', target], EXTRAHEADER);
    if (headers.length === 0) continue;
    for (const header of headers) {
      await git(['config', '--file', target, '--unset-all', header], { allowFail: true });
      removed.push(`${header} (in ${target})`);
    }
    await git(['config', ...scope, '--fixed-value', '--unset-all', name, value]);
    removed.push(name);
  }
  return removed;
}

/** A token embedded in a remote URL (https://x-access-token:TOKEN@host/...). */
async function stripRemoteUserinfo(git: Git, file: string): Promise<string[]> {
  const scope = ['--file', file];
  const removed: string[] = [];
  for (const [name, value] of await configEntries(git, scope, REMOTE_URL)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue; // scp-like or local path: no userinfo to leak
    }
    if (!url.username && !url.password) continue;
    url.username = '';
    url.password = '';
    await git(['config', ...scope, '--fixed-value', '--replace-all', name, url.toString(), value]);
    removed.push(`${name} (userinfo)`);
  }
  return removed;
}

async function configNames(git: Git, scope: string[], regexp: string): Promise<string[]> {
  const r = await git(['config', ...scope, '--name-only', '-z', '--get-regexp', regexp], { allowFail: true });
  return [...new Set(r.stdout.split('\0').filter(Boolean))];
}

async function configEntries(git: Git, scope: string[], regexp: string): Promise<Array<[string, string]>> {
  const r = await git(['config', ...scope, '-z', '--get-regexp', regexp], { allowFail: true });
  return r.stdout
    .split('\0')
    .filter(Boolean)
    .map((entry): [string, string] => {
      const nl = entry.indexOf('\n');
      return nl < 0 ? [entry, ''] : [entry.slice(0, nl), entry.slice(nl + 1)];
    });
}
