// What a fix may never change before it is pushed: the files that decide which code
// GitHub Actions runs with the repository's secrets, submodules (code from another
// repository), and anything outside the repository.
import type { ChangedPaths } from '../git/changes.js';

/** Folders whose files GitHub Actions runs: workflows, and local actions by convention. */
const RUN_FOLDERS = ['.github/workflows', '.github/actions'];
/**
 * File names refused at any depth: `uses: ./any/folder` runs the action.yml or action.yaml
 * there (GitHub's "Metadata syntax for GitHub Actions"), and .gitmodules declares submodules.
 */
const RUN_FILES = new Set(['action.yml', 'action.yaml', '.gitmodules']);

/**
 * The paths a fix may not touch. Compared without case: a checkout on a case-insensitive file
 * system (macOS and Windows runners) finds `.GitHub/Workflows` where `.github/workflows` is asked.
 */
export function forbiddenPaths(paths: string[]): string[] {
  return paths.filter((p) => {
    const n = p.replace(/\\/g, '/').replace(/^\.\//, '').toLowerCase();
    const parts = n.split('/');
    // `.github` itself only changes when it stops being a folder, e.g. becomes a symlink.
    if (n === '.github' || RUN_FOLDERS.some((d) => n === d || n.startsWith(`${d}/`))) return true;
    if (RUN_FILES.has(parts[parts.length - 1] ?? '')) return true;
    return n.startsWith('../') || n.startsWith('/') || parts.includes('..');
  });
}

/** Every reason to refuse the commit, one line each; empty when it may be pushed. */
export function refusedChanges(changed: ChangedPaths): string[] {
  return [
    ...forbiddenPaths(changed.paths),
    ...changed.symlinksOutside.map((p) => `${p} (symlink leaving the repository)`),
    ...changed.gitlinks.map((p) => `${p} (submodule commit)`),
  ];
}
