// What a push would carry: used to refuse fixes that touch .github/workflows/, reach outside
// the repository or add submodules. Computed on the commit itself, tree to tree,
// whatever the working tree holds now (a verify command or hook may have changed it since),
// with replace refs and grafts ignored, as `git push` ignores them (the runner's isolation.ts); it
// changes nothing in the repository (replace-refs.ts removes them, where the fix round says).
import path from 'node:path';
import type { Git } from './runner.js';

export interface ChangedPaths {
  /** Every path added, modified, deleted or renamed (both names), sorted, repo-relative. */
  paths: string[];
  /** Changed paths that are symlinks whose target resolves outside the repository. */
  symlinksOutside: string[];
  /** Paths the commit makes gitlinks (mode 160000: a submodule's commit), added or repointed. */
  gitlinks: string[];
}

/** How many links a chain may have before it counts as leaving the repository. */
const MAX_LINK_HOPS = 20;
const GITLINK_MODE = '160000';

/**
 * The paths `commit` changes against baseSha, its changed symlinks that point outside the
 * repository and the gitlinks it adds or changes. External diff drivers and textconv are off:
 * the repository's config is not trusted to describe its own changes.
 */
export async function changedPathsInCommit(git: Git, baseSha: string, commit: string): Promise<ChangedPaths> {
  const diffArgs = ['--no-ext-diff', '--no-textconv', '--raw', '--no-abbrev', '-z', '--find-renames'];
  const entries = parseRaw((await git(['diff', ...diffArgs, baseSha, commit])).stdout);
  const paths = [...new Set(entries.flatMap((e) => e.paths))].sort();
  const gitlinks = entries
    .filter((e) => e.newMode === GITLINK_MODE && e.status !== 'D')
    .map((e) => e.paths[e.paths.length - 1]!)
    .sort();
  const links = await symlinksOf(git, commit);
  const symlinksOutside = paths.filter((p) => links.has(p) && leavesRepo(p, links));
  return { paths, symlinksOutside, gitlinks };
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

interface RawEntry {
  newMode: string;
  status: string;
  /** One name, or two for a rename or copy (old, new). */
  paths: string[];
}

/**
 * git-diff(1) "Raw output format" with -z: ":<old mode> <new mode> <old oid> <new oid> <status>"
 * NUL, then one path NUL, or two for R and C.
 */
function parseRaw(out: string): RawEntry[] {
  const fields = out.split('\0');
  const entries: RawEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const header = fields[i] ?? '';
    if (!header.startsWith(':')) continue;
    const [, newMode = '', , , status = ''] = header.slice(1).split(' ');
    const names = status.startsWith('R') || status.startsWith('C') ? 2 : 1;
    const paths = fields.slice(i + 1, i + 1 + names).filter(Boolean);
    i += names;
    entries.push({ newMode, status: status.charAt(0), paths });
  }
  return entries;
}
