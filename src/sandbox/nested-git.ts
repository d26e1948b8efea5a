// A repository nested in the work tree (a submodule's `.git`, a file that points into
// .git/modules, or a folder) is read by the action's own git: `git status` and `git add --all`
// look into it and run the filters its config names. A call that may write the checkout could plant
// one (`sub/.git` with a `filter.<x>.clean` command) for the action to run as itself after the call.
// So after every such call each `.git` below the top is put back as it was before the run: a new one
// is removed, a changed gitfile is written back. A call can also leave what the action must not
// read as a gitfile (a FIFO, a link to /dev/zero, a 2 GB sparse file) or a link in place of the
// folder a gitfile goes back to: these are read and written by untrusted-files.ts, never followed.
import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';
import { notAFolder, readRegularFile, replaceFile } from '../files/untrusted-files.js';
import { asRoot, exec, type Privilege } from './privilege.js';

/** Anything at a `.git` that is neither a folder nor a gitfile: what it is, and what tells it apart. */
interface OtherEntry {
  other: string;
  id: string;
}

/** Each `.git` below the top: a gitfile's bytes, 'dir', or anything else. */
export type NestedGit = ReadonlyMap<string, Buffer | 'dir' | OtherEntry>;

/** A gitfile is one line, `gitdir: <path>`. */
const MAX_GITFILE_BYTES = 64 * 1024;

export async function nestedGitEntries(top: string): Promise<NestedGit> {
  const own = path.join(top, '.git');
  const r = await exec('find', [top, '-xdev', '-path', own, '-prune', '-o', '-name', '.git', '-print0']);
  const found = new Map<string, Buffer | 'dir' | OtherEntry>();
  for (const p of r.stdout.split('\0').filter(Boolean)) {
    const st = await lstat(p).catch(() => null);
    if (!st) continue;
    if (st.isDirectory()) {
      found.set(p, 'dir');
      continue;
    }
    const read = await readRegularFile(p, MAX_GITFILE_BYTES);
    if (read && 'bytes' in read) {
      found.set(p, read.bytes);
      continue;
    }
    // ctime changes with every write, and a link's target is part of what it is.
    const target = st.isSymbolicLink() ? await readlink(p).catch(() => '') : '';
    const id = `${st.dev}:${st.ino}:${st.mode}:${st.size}:${st.ctimeMs}:${target}`;
    found.set(p, { other: read?.refused ?? 'gone while read', id });
  }
  return found;
}

/** What `restoreNestedGit` did: each path it removed or wrote back, and each it could not write back. */
export interface NestedGitRestore {
  put: string[];
  refused: string[];
}

/** Puts every `.git` below the top back as `before` had it. */
export async function restoreNestedGit(
  privilege: Privilege,
  top: string,
  before: NestedGit,
  log: (line: string) => void = () => undefined,
): Promise<NestedGitRestore> {
  const now = await nestedGitEntries(top);
  const put: string[] = [];
  const refused: string[] = [];
  const removed = new Set<string>();
  for (const [p, is] of now) {
    if (same(before.get(p), is)) continue;
    await asRoot(privilege, ['rm', '-rf', '--one-file-system', '--', p]);
    removed.add(p);
    put.push(typeof is === 'object' && !Buffer.isBuffer(is) ? `${p} (${is.other})` : p);
  }
  for (const [p, was] of before) {
    if (!Buffer.isBuffer(was) || (now.has(p) && !removed.has(p))) continue;
    // The folder it goes back to may now be a link a call put there: writing through it would
    // write wherever the link points.
    const blocked = await notAFolder(top, path.relative(top, path.dirname(p)));
    if (blocked) {
      refused.push(`${p} (${blocked})`);
      continue;
    }
    await replaceFile(p, was, { mode: 0o644, log });
    if (!removed.has(p)) put.push(p);
  }
  return { put, refused };
}

function same(a: Buffer | 'dir' | OtherEntry | undefined, b: Buffer | 'dir' | OtherEntry): boolean {
  if (a === undefined) return false;
  if (a === 'dir' || b === 'dir') return a === b;
  if (Buffer.isBuffer(a) || Buffer.isBuffer(b)) return Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b);
  return a.id === b.id;
}
