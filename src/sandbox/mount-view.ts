// What one sandboxed call sees of the file system, as bubblewrap arguments. The root file system
// is read-only; /tmp and /var/tmp are empty and private to the call; the folders that hold the
// runner's secrets (its HOME, RUNNER_TEMP, the folder of every checkout of the job, and the others
// hidden-folders.ts lists) are hidden behind empty ones; then only what the call needs is mounted
// back: the checkout (writable for the calls that edit it, its .git never), its context folder
// (read), its own folders (write), the CLI it runs and the PATH it searches (read).
import path from 'node:path';

export interface MountView {
  /** Folders hidden behind an empty one, unless a path below is mounted back. */
  hidden: readonly string[];
  /** Mounted back writable. */
  writable: readonly string[];
  /** Mounted back read-only. */
  readOnly: readonly string[];
  /** Mounted back as they are: their owner and mode decide (paths the workflow named). */
  asIs: readonly string[];
  /** Inside a writable folder, mounted read-only again (a checkout's .git). */
  protectedPaths: readonly string[];
  cwd: string;
  /**
   * Folders shown as another folder instead of what is there (the runner's HOME, a tool folder a
   * variable moved: home-view.ts), a hidden one instead of an empty one.
   */
  replaced?: readonly { target: string; source: string }[];
  /** Mounted read-only from another folder, after the replaced ones (a PATH folder in a view). */
  readOnlyFrom?: readonly { target: string; source: string }[];
}

/**
 * Folders every call gets fresh and empty (sticky and world-writable, as on any Linux). A file
 * the workflow's own commands share through /tmp is reached by naming it (named-paths.ts).
 */
export const PRIVATE_TMP: readonly string[] = ['/tmp', '/var/tmp'];

/**
 * bubblewrap's arguments up to the command. Started as root: bwrap needs no user namespace
 * then (Ubuntu 24.04's AppArmor restricts unprivileged ones). It unshares the PID namespace, so
 * the call's processes see only each other and all of them end when the call's first process
 * ends (--die-with-parent: also when bwrap itself is killed); nothing can hop out of the call.
 */
export function bwrapArgs(view: MountView): string[] {
  const args = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  const tmpfsRoots = [...PRIVATE_TMP, ...outermost(view.hidden.filter((h) => !PRIVATE_TMP.some((t) => inside(h, t))))];
  for (const dir of PRIVATE_TMP) args.push('--perms', '1777', '--tmpfs', dir);
  const replacedAll = view.replaced ?? [];
  for (const dir of tmpfsRoots.slice(PRIVATE_TMP.length)) {
    const replacing = replacedAll.find((r) => r.target === dir);
    if (replacing) args.push('--bind', replacing.source, dir);
    else args.push('--perms', '0755', '--tmpfs', dir);
  }
  // Below a hidden folder or the private /tmp (a HOME there, a tool folder in RUNNER_TEMP), or in
  // the checkout, one is mounted among the others, at its depth; the folders below it start from it.
  const replaced = replacedAll.filter((r) => !tmpfsRoots.includes(r.target));
  tmpfsRoots.push(...replaced.map((r) => r.target));
  const made = new Set<string>();
  const mountBack = (p: string, how: '--bind' | '--ro-bind', source = p): void => {
    // The nearest: a HOME shown below the private /tmp is where the folders between start.
    const root = tmpfsRoots.filter((r) => inside(p, r) && p !== r).sort((a, b) => b.length - a.length)[0];
    if (root) {
      // The folders between an empty tmpfs and a mounted-back path: enter, not list.
      const between: string[] = [];
      for (let d = path.dirname(p); d !== root && inside(d, root); d = path.dirname(d)) between.unshift(d);
      for (const d of between.filter((b) => !made.has(b))) {
        made.add(d);
        args.push('--perms', '0711', '--dir', d);
      }
    }
    args.push(how, source, p);
  };
  const writable = outermost(view.writable);
  const readOnly = outermost(view.readOnly.filter((r) => !writable.some((w) => inside(r, w))));
  // Shallow paths first: a mount below another must come after it to stay visible.
  // At one depth a later kind wins: what the workflow named, then writable, then read-only.
  const mounts = [
    ...outermost(view.asIs).map((p) => [p, '--bind'] as const),
    ...writable.map((p) => [p, '--bind'] as const),
    ...readOnly.map((p) => [p, '--ro-bind'] as const),
  ];
  const all = [
    ...replaced.map((r) => [r.target, '--bind', r.source] as const),
    ...mounts,
    ...(view.readOnlyFrom ?? []).map((r) => [r.target, '--ro-bind', r.source] as const),
  ];
  // Stable: the replaced folder comes first at its depth, so a path named at it is mounted over it.
  all.sort((a, b) => depth(a[0]) - depth(b[0]));
  for (const [p, how, source] of all) mountBack(p, how, source);
  // Last, so that no other mount (a deeper one, or one a link led into it) can cover it.
  for (const p of view.protectedPaths) mountBack(p, '--ro-bind');
  args.push('--chdir', view.cwd);
  return args;
}

/** True when `p` is `dir` or below it. */
export function inside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The paths not below another of them, each once. */
function outermost(paths: readonly string[]): string[] {
  const unique = [...new Set(paths.map((p) => path.resolve(p)))].filter((p) => p !== '/');
  return unique.filter((p) => !unique.some((q) => q !== p && inside(p, q)));
}

function depth(p: string): number {
  return p.split('/').length;
}
