// actions/checkout persists its token in the checkout's local config (v4/v5: an
// http.<url>.extraheader; v6: the same header in a file pulled in by includeIf.<cond>.path).
// Agents run in that checkout and could read it, so it goes before any agent starts;
// the action authenticates its own fetch/push through GitAuth instead.
import path from 'node:path';
import type { Git } from './runner.js';

const EXTRAHEADER = String.raw`^http\.(.*\.)?extraheader$`;
const INCLUDE = String.raw`^include(if\..*)?\.path$`;

/** Removes every persisted credential from the local config; returns the names removed. */
export async function stripPersistedCredentials(git: Git): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await configNames(git, ['--local'], EXTRAHEADER)) {
    await git(['config', '--local', '--unset-all', name]);
    removed.push(name);
  }
  removed.push(...(await stripIncludedHeaders(git)));
  removed.push(...(await stripRemoteUserinfo(git)));
  return removed;
}

/**
 * Include entries whose target holds an extraheader: empty the target, drop the entry.
 * A relative include is resolved against the including file's directory (.git/).
 */
async function stripIncludedHeaders(git: Git): Promise<string[]> {
  const removed: string[] = [];
  const gitDir = (await git(['rev-parse', '--absolute-git-dir'])).stdout.trim();
  const raw = await configEntries(git, ['--local'], INCLUDE);
  // --type=path expands "~/" with the child's HOME, exactly as git would when including.
  const expanded = await configEntries(git, ['--local', '--type=path'], INCLUDE);
  for (const [i, [name, value]] of raw.entries()) {
    const file = path.resolve(gitDir, expanded[i]?.[1] ?? value);
    const headers = await configNames(git, ['--file', file], EXTRAHEADER);
    if (headers.length === 0) continue;
    for (const header of headers) {
      await git(['config', '--file', file, '--unset-all', header], { allowFail: true });
      removed.push(`${header} (in ${file})`);
    }
    await git(['config', '--local', '--fixed-value', '--unset-all', name, value]);
    removed.push(name);
  }
  return removed;
}

/** A token embedded in the remote URL (https://x-access-token:TOKEN@host/...). */
async function stripRemoteUserinfo(git: Git): Promise<string[]> {
  const removed: string[] = [];
  for (const [name, value] of await configEntries(git, ['--local'], String.raw`^remote\..*\.(push)?url$`)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue; // scp-like or local path: no userinfo to leak
    }
    if (!url.username && !url.password) continue;
    url.username = '';
    url.password = '';
    await git(['config', '--local', '--fixed-value', '--replace-all', name, url.toString(), value]);
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
