// The checkout handed back as it came. The job's later steps run in this checkout with their own
// secrets: what a call leaves there, ignored by the PR's .gitignore or not (a verify that writes
// `node_modules/.bin/eslint` for a later step's `npx eslint`), must not be there when the run ends.
// put-back.ts puts back what one command changed among the files git sees; this module takes a
// snapshot of the checkout when the run starts and, when it ends, removes every path the run's calls
// created (ignored ones included), restores an untracked file an earlier step left that a call
// changed, and puts tracked files back to HEAD (the fix commits stay: they are the run's work).
import { execFile } from 'node:child_process';
import { chmod, copyFile, lstat, mkdir, rm, symlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { trustedProgram } from '../process/programs.js';
import { notAFolder } from '../files/untrusted-files.js';
import { walkTree, type TreeEntry } from '../files/tree-walk.js';
import { changedPaths, firstPaths, putBackSince } from './put-back.js';
import type { Git } from './runner.js';
import { untrackedEntries } from './state.js';

/** What one path below an untracked entry was when the run started. */
type Entry = Omit<TreeEntry, 'path'>;

export interface CheckoutSnapshot {
  readonly top: string;
  /** Paths git saw changed at the start (none in a clean checkout). */
  readonly changed: ReadonlySet<string>;
  /** The untracked entries (ignored ones included), as `git ls-files --others --directory` lists them. */
  readonly untracked: ReadonlySet<string>;
  /** Every path below them, relative to the top. */
  readonly paths: ReadonlyMap<string, Entry>;
  /** Copies of the files a call could change, by path. */
  readonly copies: ReadonlyMap<string, string>;
}

export interface SnapshotOptions {
  /** A folder no call can reach (in RUNNER_TEMP), for the copies. */
  copiesDir: string;
  /** Calls run as the checkout's owner (no sandbox user): every file is theirs to change. */
  callsRunAsOwner: boolean;
}

/** Copies kept at most: beyond, a changed file is named in the log instead of restored. */
const MAX_COPIES_BYTES = 64 * 1024 * 1024;

/** The checkout as the run found it; taken before the first call. */
export async function snapshotCheckout(git: Git, top: string, opts: SnapshotOptions): Promise<CheckoutSnapshot> {
  const changed = await changedPaths(git);
  const untracked = new Set(await untrackedEntries(git));
  const paths = await walk(top, [...untracked]);
  const copies = new Map<string, string>();
  let kept = 0;
  for (const [rel, e] of paths) {
    if (e.type !== 'f' || !(opts.callsRunAsOwner || changeableByOthers(rel, e, paths))) continue;
    if (kept + e.size > MAX_COPIES_BYTES) continue;
    const copy = path.join(opts.copiesDir, String(copies.size));
    if (copies.size === 0) await mkdir(opts.copiesDir, { recursive: true, mode: 0o700 });
    await copyFile(path.join(top, rel), copy);
    copies.set(rel, copy);
    kept += e.size;
  }
  return { top, changed, untracked, paths, copies };
}

/** What handBackCheckout did, for the log. */
export interface HandBack {
  /** Paths removed, counted by their first folder or name in the checkout. */
  removed: Map<string, number>;
  /** Untracked files restored from their copy. */
  restored: string[];
  /** Untracked files a call changed that could not be restored (no copy kept). */
  notRestored: string[];
  /** Tracked paths put back to HEAD. */
  putBack: string[];
}

/** Hands the checkout back as the snapshot saw it; run after the last call has ended. */
export async function handBackCheckout(git: Git, snap: CheckoutSnapshot): Promise<HandBack> {
  const out: HandBack = { removed: new Map(), restored: [], notRestored: [], putBack: [] };
  const count = (rel: string, n: number) => {
    const first = rel.split('/')[0]!;
    out.removed.set(first, (out.removed.get(first) ?? 0) + n);
  };
  // Entries that were not there: whole, whatever they hold.
  for (const rel of await untrackedEntries(git)) {
    if (snap.untracked.has(rel) || [...snap.untracked].some((u) => rel.startsWith(`${u}/`))) continue;
    count(rel, await removeTree(snap.top, rel));
  }
  // Inside the entries that were: what is new goes, what changed comes back from its copy.
  const now = await walk(snap.top, [...snap.untracked]);
  let gone: string | null = null;
  for (const [rel, e] of now) {
    if (gone !== null && rel.startsWith(`${gone}/`)) continue;
    gone = null;
    const was = snap.paths.get(rel);
    if (!was || (was.type !== e.type && e.type !== 'd') || (was.type !== 'd' && e.type === 'd')) {
      count(rel, await removeTree(snap.top, rel));
      gone = rel;
    } else if (was.type === 'd' && was.mode !== e.mode) {
      await chmod(path.join(snap.top, rel), was.mode);
    }
  }
  for (const [rel, was] of snap.paths) {
    if (was.type === 'd') {
      if (!now.has(rel)) await mkdir(path.join(snap.top, rel), { recursive: true, mode: was.mode });
      continue;
    }
    const e = now.get(rel);
    const same = e && e.type === was.type && e.ctime === was.ctime && e.mode === was.mode;
    if (same && e.target === was.target) continue;
    const copy = snap.copies.get(rel);
    const restorable = was.type === 'l' || (was.type === 'f' && copy);
    if (!restorable || (await notAFolder(snap.top, path.dirname(rel))) !== null) {
      out.notRestored.push(rel);
      continue;
    }
    const abs = path.join(snap.top, rel);
    await rm(abs, { recursive: true, force: true });
    if (was.type === 'l') {
      await symlink(was.target, abs);
    } else {
      await copyFile(copy!, abs);
      await chmod(abs, was.mode);
      const seconds = Number(was.mtime);
      await utimes(abs, seconds, seconds);
    }
    out.restored.push(rel);
  }
  out.putBack = await putBackSince(git, snap.changed);
  return out;
}

/** The log's lines for what handBackCheckout did (none when the checkout was as it came). */
export function describeHandBack(done: HandBack): { info: string[]; warnings: string[] } {
  const info: string[] = [];
  const warnings: string[] = [];
  if (done.removed.size) {
    const each = [...done.removed].map(([name, n]) => `${name} (${n} ${n === 1 ? 'path' : 'paths'})`);
    info.push(`the checkout handed back: removed what calls created, ignored paths included: ${each.join(', ')}`);
  }
  if (done.restored.length) {
    info.push(`the checkout handed back: restored untracked files a call changed: ${firstPaths(done.restored)}`);
  }
  if (done.putBack.length) info.push(`the checkout handed back: put back to HEAD: ${firstPaths(done.putBack)}`);
  if (done.notRestored.length) {
    warnings.push(
      `a call changed untracked files that were in the checkout before the run, and no copy was kept to ` +
        `restore them (more than ${MAX_COPIES_BYTES / 1024 ** 2} MiB): ${firstPaths(done.notRestored)}`,
    );
  }
  return { info, warnings };
}

/**
 * A file the sandbox user may change though it is not its own: one others may write, or one in a
 * folder others may write without the sticky bit (it can be replaced there).
 */
function changeableByOthers(rel: string, e: Entry, paths: ReadonlyMap<string, Entry>): boolean {
  if (e.mode & 0o002) return true;
  const parent = paths.get(path.dirname(rel));
  return !!parent && (parent.mode & 0o002) !== 0 && (parent.mode & 0o1000) === 0;
}

/** Removes `rel` and what it holds, never through a link; returns how many paths went. */
async function removeTree(top: string, rel: string): Promise<number> {
  // Never through a link a call put in place of a folder on the way.
  if ((await notAFolder(top, path.dirname(rel))) !== null) return 0;
  const abs = path.join(top, rel);
  const st = await lstat(abs).catch(() => null);
  if (!st) return 0;
  let n = 1;
  if (st.isDirectory()) {
    n = (await walk(top, [rel])).size;
    // A call may have left folders its owner cannot write (0555): the owner may change that.
    await promisify(execFile)(trustedProgram('chmod'), ['-R', 'u+rwx', '--', abs]).catch(() => undefined);
  }
  await rm(abs, { recursive: true, force: true });
  return n;
}

/** Every path at and below `rels` (relative to `top`), parents first, never through a link. */
async function walk(top: string, rels: readonly string[]): Promise<Map<string, Entry>> {
  const found = await walkTree(
    trustedProgram('find'),
    rels.map((r) => path.join(top, r)),
  );
  return new Map(found.map(({ path: abs, ...entry }) => [path.relative(top, abs), entry]));
}
