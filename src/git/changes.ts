// What a push would carry: used to refuse fixes that touch .github/workflows/ or reach
// outside the repository (SPEC §8). Computed on the commit itself, tree to tree, whatever
// the working tree holds now (a verify command or hook may have changed it since).
import path from 'node:path';
import type { Git } from './runner.js';

export interface ChangedPaths {
  /** Every path added, modified, deleted or renamed (both names), sorted, repo-relative. */
  paths: string[];
  /** Changed paths that are symlinks whose target resolves outside the repository. */
  symlinksOutside: string[];
}

/** How many links a chain may have before it counts as leaving the repository. */
const MAX_LINK_HOPS = 20;

/**
 * The paths `commit` changes against baseSha and its changed symlinks that point outside
 * the repository. External diff drivers and textconv are off: the repository's config is
 * not trusted to describe its own changes.
 */
export async function changedPathsInCommit(git: Git, baseSha: string, commit: string): Promise<ChangedPaths> {
  const diff = await git(['diff', '--no-ext-diff', '--no-textconv', '--name-status', '-z', '--find-renames', baseSha, commit]);
  const paths = parseNameStatus(diff.stdout);
  const links = await symlinksOf(git, commit);
  const symlinksOutside = paths.filter((p) => links.has(p) && leavesRepo(p, links));
  return { paths, symlinksOutside };
}

/** Every symlink in the commit's tree, by path, with its target text. */
async function symlinksOf(git: Git, commit: string): Promise<Map<string, string>> {
  const tree = await git(['ls-tree', '-r', '-z', commit]);
  const links = new Map<string, string>();
  for (const entry of tree.stdout.split('\0')) {
    // "<mode> <type> <oid>\t<path>"; mode 120000 is a symlink whose blob is its target.
    if (!entry.startsWith('120000 ')) continue;
    const tab = entry.indexOf('\t');
    const oid = entry.slice(0, tab).split(' ')[2]!;
    links.set(entry.slice(tab + 1), (await git(['cat-file', 'blob', oid])).stdout);
  }
  return links;
}

/**
 * Follows a link through the tree (a link to a link is followed too). An absolute target
 * leaves the repository: once pushed it names a path on whatever machine checks it out.
 */
function leavesRepo(link: string, links: Map<string, string>): boolean {
  let current = link;
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    const target = links.get(current);
    if (target === undefined) return false;
    if (path.posix.isAbsolute(target)) return true;
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(current), target));
    if (resolved === '..' || resolved.startsWith('../')) return true;
    current = resolved;
  }
  return true;
}

function parseNameStatus(out: string): string[] {
  const fields = out.split('\0');
  const paths = new Set<string>();
  for (let i = 0; i < fields.length; i++) {
    const status = fields[i] ?? '';
    if (!status) continue;
    // R and C carry two names (old, new); every other status one.
    const names = status.startsWith('R') || status.startsWith('C') ? 2 : 1;
    for (let k = 0; k < names; k++) paths.add(fields[++i] ?? '');
  }
  paths.delete('');
  return [...paths].sort();
}

