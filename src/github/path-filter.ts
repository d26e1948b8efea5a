// The repo config's path filters: which changed files the reviewers are shown. A file is
// kept when it matches an include glob (or there are none) and no exclude glob.
// Globs: `**` any number of folders, `*` anything but `/`, `?` one character but `/`.

export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A glob without a slash matches the name in any folder, like .gitignore.
  return new RegExp(glob.includes('/') ? `^${re}$` : `^(?:.*/)?${re}$`);
}

export interface PathFilter {
  include: string[];
  exclude: string[];
}

export function makePathMatcher(filter: PathFilter): (file: string) => boolean {
  const inc = filter.include.map(globToRegExp);
  const exc = filter.exclude.map(globToRegExp);
  return (file) => (inc.length === 0 || inc.some((r) => r.test(file))) && !exc.some((r) => r.test(file));
}

/** Keeps the per-file sections of a unified diff whose path is kept. */
export function filterDiff(diff: string, keep: (file: string) => boolean): string {
  const sections = diff.split(/(?=^diff --git )/m);
  return sections
    .filter((s) => {
      const m = /^diff --git a\/(.+?) b\/(.+)$/m.exec(s);
      return !m || keep(m[2]!) || keep(m[1]!);
    })
    .join('');
}
