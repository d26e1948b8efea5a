// The programs the action starts itself (git, sudo, the privileged helpers) by absolute paths, found
// in folders that no call can write. A folder on PATH may be writable by everyone (images and
// self-hosted runners have left /usr/local/bin 0777): a program a call, or anyone else, put there
// under a well-known name would otherwise run as the action, whose environment holds the token.
// A candidate counts only when the file and every folder above it (links resolved) belong to root or
// to the action's own user and are writable by no group and no one else: the sandbox user is neither.
// The answer is kept for the process's life, so a later change of PATH or of a folder changes nothing;
// finding it on first use is as safe as at start, because a folder a call could write never counts.
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Where the system keeps its programs; searched after PATH, and alone for privileged helpers. */
const SYSTEM_FOLDERS: readonly string[] = [
  '/usr/local/sbin',
  '/usr/local/bin',
  '/usr/sbin',
  '/usr/bin',
  '/sbin',
  '/bin',
];

const found = new Map<string, string>();

/**
 * The absolute path of `name`: the first candidate in `folders` that no one but root and the action's
 * user can have written. Throws, naming what was refused, when there is none.
 */
export function trustedProgram(name: string, folders: readonly string[] = SYSTEM_FOLDERS): string {
  if (path.isAbsolute(name)) return name;
  const key = `${name}\0${folders.join(':')}`;
  const known = found.get(key);
  if (known) return known;
  const refused: string[] = [];
  for (const dir of folders.filter((d) => path.isAbsolute(d))) {
    const candidate = path.join(dir, name);
    let real: string;
    try {
      real = realpathSync(candidate);
      if (!statSync(real).isFile()) continue;
    } catch {
      continue;
    }
    // The name as found and every link on the way to the program: a link in a safe folder may point
    // into an open one. The name is what runs, as some programs act by the name they are called by
    // (pkill is a link to pgrep).
    const open = openOnTheWay(candidate);
    if (open) {
      refused.push(`${candidate} (${open} can be written by others)`);
      continue;
    }
    found.set(key, candidate);
    return candidate;
  }
  const why = refused.length ? `; refused: ${refused.join(', ')}` : '';
  throw new Error(`${name} was not found in a folder that only root or the action's user can write${why}`);
}

/** The action's PATH as it was when first asked, then the system's folders (searchPath). */
export function pathThenSystem(): readonly string[] {
  startPath ??= searchPath(process.env, process.cwd());
  return startPath;
}

/**
 * PATH's folders, then the system's. A folder in the job's checkouts is left out (a workflow's
 * `$GITHUB_WORKSPACE/bin` or `node_modules/.bin` on PATH): the PR's own files there belong to the
 * action's user, so ownership alone would take them for the action's own.
 */
export function searchPath(env: NodeJS.ProcessEnv, cwd: string): string[] {
  const checkouts = [cwd, env.GITHUB_WORKSPACE, env.RUNNER_WORKSPACE && path.dirname(env.RUNNER_WORKSPACE)]
    .filter((d): d is string => !!d && path.isAbsolute(d))
    .map((d) => path.resolve(d));
  const inCheckout = (d: string) =>
    checkouts.some((c) => {
      const rel = path.relative(c, path.resolve(d));
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    });
  const fromPath = (env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d) && !inCheckout(d));
  return [...new Set([...fromPath, ...SYSTEM_FOLDERS])];
}
let startPath: string[] | undefined;

/** The first path on the way to `start`'s program that someone besides root and us may write, or null. */
export function openOnTheWay(start: string): string | null {
  let hop = start;
  for (let links = 0; links < 40; links++) {
    const open = writableChain(hop) ?? writableChain(realpathSync(hop));
    if (open) return open;
    if (!lstatSync(hop).isSymbolicLink()) return null;
    hop = path.resolve(path.dirname(hop), readlinkSync(hop));
  }
  return start;
}

/** The first of `p` and the folders above it, as written, that someone besides root and us may write. */
function writableChain(p: string): string | null {
  const me = process.getuid?.() ?? 0;
  for (let q = p; ; q = path.dirname(q)) {
    const st = statSync(q);
    if ((st.uid !== 0 && st.uid !== me) || (st.mode & 0o022) !== 0) return q;
    if (q === path.dirname(q)) return null;
  }
}
