// A walk of a folder a sandboxed call could write (a checkout's untracked entries, a tool folder of
// HOME), with `find`: one process lists a large tree fast, never through a link (-P), and reports a
// link's target without following it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** One path as `find -printf` saw it. */
export interface TreeEntry {
  /** find's %y: `f` file, `d` folder, `l` link, … */
  type: string;
  mode: number;
  size: number;
  /** Seconds since the epoch, as find prints them. */
  mtime: string;
  /** Changed by any write, and settable by no one: a call cannot hide a change behind an old mtime. */
  ctime: string;
  /** A link's target; empty for anything else. */
  target: string;
  /** The absolute path. */
  path: string;
}

/** Paths a find gets at once: a command line has a limit. */
const BATCH = 500;

/**
 * Every path at and below `roots` (absolute paths), each folder before what it holds, never through
 * a link. `find`: the absolute path of the program (the caller finds it where no call can write). A
 * path that vanished or cannot be read is left out.
 */
export async function walkTree(find: string, roots: readonly string[]): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  for (let i = 0; i < roots.length; i += BATCH) {
    const args = ['-P', ...roots.slice(i, i + BATCH), '-printf', '%y %m %s %T@ %C@ %p\\0%l\\0'];
    const { stdout } = await promisify(execFile)(find, args, {
      maxBuffer: 512 * 1024 * 1024,
      encoding: 'utf8',
    }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
    const fields = stdout.split('\0');
    for (let j = 0; j + 1 < fields.length; j += 2) {
      const line = fields[j]!;
      const [type, mode, size, mtime, ctime] = line.split(' ', 5) as [string, string, string, string, string];
      const abs = line.slice([type, mode, size, mtime, ctime].join(' ').length + 1);
      out.push({ type, mode: parseInt(mode, 8), size: Number(size), mtime, ctime, target: fields[j + 1]!, path: abs });
    }
  }
  return out;
}
