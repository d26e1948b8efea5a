// What a push would carry, computed before committing: used to refuse fixes that touch
// .github/workflows/ or reach outside the repository (SPEC §8).
import { copyFile, mkdtemp, readlink, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Git } from './runner.js';

export interface ChangedPaths {
  /** Every path added, modified, deleted or renamed (both names), sorted, repo-relative. */
  paths: string[];
  /** Changed paths that are symlinks whose target resolves outside the work tree. */
  symlinksOutside: string[];
}

/**
 * Compares baseSha with the working tree as `git add --all` would stage it (untracked
 * files included, ignored files not), using a throwaway index so the real one is untouched.
 */
export async function changedPathsSince(git: Git, baseSha: string, opts: { exclude?: readonly string[] } = {}): Promise<ChangedPaths> {
  const root = (await git(['rev-parse', '--show-toplevel'])).stdout.trim();
  const realIndex = (await git(['rev-parse', '--path-format=absolute', '--git-path', 'index'])).stdout.trim();
  const tmp = await mkdtemp(path.join(tmpdir(), 'review-loop-index-'));
  const env = { GIT_INDEX_FILE: path.join(tmp, 'index') };
  try {
    await copyFile(realIndex, env.GIT_INDEX_FILE).catch(() => undefined); // none yet: start empty
    await git(['add', '--all'], { env });
    const excludes = (opts.exclude ?? []).map((p) => `:(top,literal,exclude)${p}`);
    // Only exclusions given: git then starts from the whole tree.
    const spec = excludes.length > 0 ? ['--', ...excludes] : [];
    const diff = await git(['diff', '--cached', '--name-status', '-z', '--find-renames', baseSha, ...spec], { env });
    const paths = parseNameStatus(diff.stdout);
    const staged = await git(['ls-files', '--stage', '-z', ...spec], { env });
    const links = symlinkPaths(staged.stdout).filter((p) => paths.includes(p));
    const symlinksOutside: string[] = [];
    for (const link of links) if (await pointsOutside(root, link)) symlinksOutside.push(link);
    return { paths, symlinksOutside };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
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

function symlinkPaths(lsFiles: string): string[] {
  // "<mode> <oid> <stage>\t<path>"; mode 120000 is a symlink.
  return lsFiles
    .split('\0')
    .filter((e) => e.startsWith('120000 '))
    .map((e) => e.slice(e.indexOf('\t') + 1));
}

async function pointsOutside(root: string, link: string): Promise<boolean> {
  const abs = path.join(root, link);
  const target = await readlink(abs).catch(() => null);
  if (target === null) return false; // staged as a link but gone from disk: nothing to follow
  // By its text, and (when it resolves) by where the chain of links really ends.
  if (isOutside(root, path.resolve(path.dirname(abs), target))) return true;
  const resolved = await realpath(abs).catch(() => null);
  return resolved !== null && isOutside(await realpath(root), resolved);
}

function isOutside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}

/**
 * The paths a commit changes against baseSha, tree to tree (what a push of that commit
 * really carries, whatever the working tree holds now), and its symlinks that point
 * outside the repository. External diff drivers and textconv are off: the repository's
 * config is not trusted to describe its own changes.
 */
export async function changedPathsInCommit(git: Git, baseSha: string, commit: string): Promise<ChangedPaths> {
  const diff = await git(['diff', '--no-ext-diff', '--no-textconv', '--name-status', '-z', '--find-renames', baseSha, commit]);
  const paths = parseNameStatus(diff.stdout);
  const tree = await git(['ls-tree', '-r', '-z', commit, '--', ...paths.map((p) => `:(top,literal)${p}`)]);
  const symlinksOutside: string[] = [];
  for (const entry of tree.stdout.split('\0')) {
    // "<mode> <type> <oid>\t<path>"; mode 120000 is a symlink whose blob is its target.
    if (!entry.startsWith('120000 ')) continue;
    const [info, file] = [entry.slice(0, entry.indexOf('\t')), entry.slice(entry.indexOf('\t') + 1)];
    const oid = info.split(' ')[2]!;
    const target = (await git(['cat-file', 'blob', oid])).stdout;
    if (path.isAbsolute(target) || isOutside('/repo', path.resolve('/repo', path.dirname(file), target))) symlinksOutside.push(file);
  }
  return { paths, symlinksOutside };
}
