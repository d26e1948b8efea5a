// What the sandbox user may touch, and giving it back afterwards:
// - traverse: the directories above the checkout, the context and state folders and the CLI
//   get o+x (enter, not list) where they lack it, restored when the run ends;
// - read: a context folder becomes group-readable by the user's group;
// - own: a CLI state home or a hook's scratch folder is the user's for one call;
// - the work tree: what the PR's tree tracks and what the run's calls created are the user's for
//   one call (never `.git`, never what an earlier step of the job left there), and the top folder
//   is group-writable with the sticky bit, so the user can add files at the top but can neither
//   remove nor replace `.git` (unlink(2): in a sticky folder only the entry's owner may).
// After the call everything the user owns under a granted path goes back to its owner.
import { statSync, type Stats } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathThenSystem, trustedProgram } from '../process/programs.js';
import { exec, mustAsRoot, type Privilege } from './privilege.js';
import type { SandboxUser } from './user.js';

interface Owner {
  uid: number;
  gid: number;
}

export class AccessGrants {
  private readonly traversed = new Map<string, number>();
  /** The chmod that opens each traversed folder, for calls that arrive while it runs. */
  private readonly opening = new Map<string, Promise<void>>();

  constructor(
    private readonly privilege: Privilege,
    private readonly user: SandboxUser,
  ) {}

  /** Makes every folder above each target (and a target itself when a folder) enterable by others. */
  async traverse(...targets: string[]): Promise<void> {
    // Outer folders first, each once.
    const dirs = new Set<string>();
    for (const target of targets) {
      const chain: string[] = [];
      for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
        chain.push(dir);
        if (dir === path.dirname(dir)) break;
      }
      for (const dir of chain.reverse()) dirs.add(dir);
    }
    // Synchronous stats: no other call (reviewers start in parallel) can come between the check
    // and the record, so each folder's original mode is recorded once, before any chmod.
    const closed: string[] = [];
    const waits: Promise<void>[] = [];
    for (const dir of dirs) {
      const opening = this.opening.get(dir);
      if (opening) {
        waits.push(opening);
        continue;
      }
      const st = statOrNull(dir);
      if (!st?.isDirectory()) continue;
      this.traversed.set(dir, st.mode & 0o7777);
      if ((st.mode & 0o001) === 0) closed.push(dir);
      else this.opening.set(dir, Promise.resolve());
    }
    // One privileged command for all of them (each is a sudo on hosted runners).
    if (closed.length) {
      const chmod = mustAsRoot(this.privilege, ['chmod', 'o+x', '--', ...closed]).then(() => undefined);
      for (const dir of closed) this.opening.set(dir, chmod);
      waits.push(chmod);
    }
    await Promise.all(waits);
  }

  /** Read access for the user's group to a folder the action wrote (context folders). */
  async readable(dir: string): Promise<void> {
    await mustAsRoot(this.privilege, ['chgrp', '-R', '--', String(this.user.gid), dir]);
    await mustAsRoot(this.privilege, ['chmod', '-R', 'g+rX,g-w', '--', dir]);
  }

  /** The user owns `dirs` until the returned function gives them back. */
  async own(dirs: readonly string[]): Promise<() => Promise<void>> {
    if (dirs.length === 0) return async () => {};
    const owners = await Promise.all(dirs.map((d) => ownerOf(d)));
    await mustAsRoot(this.privilege, ['chown', '-R', '--', this.ids(this.user), ...dirs]);
    return async () => {
      for (const [i, dir] of dirs.entries()) await this.giveBack(dir, owners[i]!);
    };
  }

  /**
   * Write access to a checkout for one call, keeping `.git` out of reach: what the PR's tree
   * tracks (and the folders holding it), and what the run's calls created; never what was there
   * before the run and is not tracked (`before`: a credentials file an earlier step wrote keeps
   * its owner and mode, and so stays unreadable if it was private).
   */
  async workTree(top: string, before: ReadonlySet<string>): Promise<() => Promise<void>> {
    const { files, dirs, created, shared } = await grantable(top, before);
    // The top, and every folder that holds what an earlier step left (or a folder above it), stay
    // their owner's: the user may add files there and change its own, but with the sticky bit it
    // can neither remove nor rename an entry that is not its own (a 0600 `src/.env` moved to a
    // name no one excludes would be staged by the action's user, who can read it).
    const sticky = [top, ...shared];
    const kept = await Promise.all(sticky.map(async (d) => ({ d, owner: await ownerOf(d), mode: await modeOf(d) })));
    await this.chownEach([...dirs, ...files]);
    if (created.length) await this.chownEach(created, ['-R']);
    await mustAsRoot(this.privilege, ['chgrp', '--', String(this.user.gid), ...sticky]);
    await mustAsRoot(this.privilege, ['chmod', 'g+rwx,+t', '--', ...sticky]);
    return async () => {
      await this.giveBack(top, kept[0]!.owner);
      // One command per original group and per original mode: each is a sudo on hosted runners.
      for (const [gid, dirs] of groupBy(kept, (k) => k.owner.gid)) {
        await mustAsRoot(this.privilege, ['chgrp', '--', String(gid), ...dirs]);
      }
      for (const [mode, dirs] of groupBy(kept, (k) => k.mode)) {
        await mustAsRoot(this.privilege, ['chmod', mode.toString(8), '--', ...dirs]);
      }
    };
  }

  /** chown to the user, as few commands as the argument size allows; never through a link. */
  private async chownEach(paths: readonly string[], flags: string[] = []): Promise<void> {
    for (const batch of batches(paths)) {
      await mustAsRoot(this.privilege, ['chown', '-h', ...flags, '--', this.ids(this.user), ...batch]);
    }
  }

  /** Undoes every o+x this run added (newest first, so inner folders go before outer ones). */
  async restore(): Promise<void> {
    // One command per original mode: no folder is closed before its inner ones either way,
    // since each chmod only takes away the o+x this run added.
    const byMode = new Map<number, string[]>();
    for (const [dir, mode] of [...this.traversed].reverse()) {
      if ((mode & 0o001) === 0) byMode.set(mode, [...(byMode.get(mode) ?? []), dir]);
    }
    for (const [mode, dirs] of byMode) {
      await mustAsRoot(this.privilege, ['chmod', mode.toString(8), '--', ...dirs]).catch(() => undefined);
    }
    this.traversed.clear();
    this.opening.clear();
  }

  private async giveBack(dir: string, owner: Owner): Promise<void> {
    // --from: only what the user owns now (what it created, what we lent it); -R does not follow
    // symbolic links (chown(1), -P is the default), so a planted link cannot redirect the chown.
    await mustAsRoot(this.privilege, ['chown', '-R', `--from=${this.user.uid}`, '--', this.ids(owner), dir]);
    // chown(2) clears set-user-ID and set-group-ID bits of files (Linux, since 2.2.13, for root
    // too); this makes sure a file the user planted can never run with the owner's rights.
    await mustAsRoot(this.privilege, [
      'find',
      dir,
      '-xdev',
      '-type',
      'f',
      '-perm',
      '/6000',
      '-exec',
      'chmod',
      'ug-s',
      '{}',
      '+',
    ]);
  }

  private ids(o: Owner): string {
    return `${o.uid}:${o.gid}`;
  }
}

/**
 * The paths of a checkout the sandbox may write: tracked files (submodules' included) that
 * exist, the folders that hold them, and untracked entries that were not there before the run.
 */
async function grantable(top: string, before: ReadonlySet<string>) {
  const tracked = await listed(top, ['--recurse-submodules']);
  const files: string[] = [];
  const dirs = new Set<string>();
  // chown -h does not follow a link in the last part of a path, but the kernel follows one in
  // any folder above it: a call that turned a tracked folder into a link to / would have the next
  // grant chown whatever lies behind it. So a path is granted only when every folder between the
  // checkout's top and it is a real folder.
  const realDir = folderCheck(top);
  for (const rel of tracked) {
    const abs = path.join(top, rel);
    if (!(await lstat(abs).catch(() => null))) continue; // deleted in the work tree
    if (!(await realDir(path.dirname(rel)))) continue;
    files.push(abs);
    for (let d = path.dirname(rel); d !== '.' && !dirs.has(d); d = path.dirname(d)) dirs.add(d);
  }
  const untracked = (await untrackedEntries(top)).filter((rel) => !before.has(rel));
  const created: string[] = [];
  for (const rel of untracked) if (await realDir(path.dirname(rel))) created.push(path.join(top, rel));
  // The folders from the top down to each entry an earlier step left: shared, never the user's.
  const shared = new Set<string>();
  for (const rel of before) {
    for (let d = path.dirname(rel); d !== '.' && !shared.has(d); d = path.dirname(d)) {
      if (await realDir(d)) shared.add(d);
    }
  }
  const owned = [...dirs].filter((d) => !shared.has(d));
  return {
    files,
    dirs: owned.map((d) => path.join(top, d)),
    created,
    shared: [...shared].map((d) => path.join(top, d)),
  };
}

/** Whether a folder of the checkout (relative; '.' is the top) and every folder above it are real folders. */
function folderCheck(top: string): (rel: string) => Promise<boolean> {
  const known = new Map<string, Promise<boolean>>([['.', Promise.resolve(true)]]);
  const check = (rel: string): Promise<boolean> => {
    let found = known.get(rel);
    if (!found) {
      found = check(path.dirname(rel)).then(async (above) => {
        if (!above) return false;
        const st = await lstat(path.join(top, rel)).catch(() => null);
        return st !== null && st.isDirectory() && !st.isSymbolicLink();
      });
      known.set(rel, found);
    }
    return found;
  };
  return check;
}

/** Untracked entries of a checkout, ignored ones included; a wholly untracked folder is one entry. */
export function untrackedEntries(top: string): Promise<string[]> {
  return listed(top, ['--others', '--directory']);
}

async function listed(top: string, args: string[]): Promise<string[]> {
  // The action's own git with nothing from the checkout that could run a program (no
  // fsmonitor, no hooks) and no global or system config.
  const r = await exec(
    trustedProgram('git', pathThenSystem()),
    ['-C', top, '-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', 'ls-files', '-z', ...args],
    GIT_ENV,
  );
  if (r.code !== 0) throw new Error(`git ls-files in ${top} failed: ${r.stderr.trim().slice(-300)}`);
  return r.stdout
    .split('\0')
    .filter(Boolean)
    .map((p) => p.replace(/\/$/, ''));
}

const GIT_ENV = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  LC_ALL: 'C',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** Argument lists of at most 64 KiB, so no command line comes near the system's limit. */
function* batches(paths: readonly string[]): Generator<string[]> {
  let batch: string[] = [];
  let size = 0;
  for (const p of paths) {
    if (batch.length && size + p.length + 1 > 65_536) {
      yield batch;
      batch = [];
      size = 0;
    }
    batch.push(p);
    size += p.length + 1;
  }
  if (batch.length) yield batch;
}

/** The folders of `kept` by a key (a group id, a mode), each key once. */
function groupBy(
  kept: readonly { d: string; owner: Owner; mode: number }[],
  key: (k: (typeof kept)[number]) => number,
) {
  const by = new Map<number, string[]>();
  for (const k of kept) by.set(key(k), [...(by.get(key(k)) ?? []), k.d]);
  return by;
}

async function modeOf(p: string): Promise<number> {
  return (await stat(p)).mode & 0o7777;
}

async function ownerOf(p: string): Promise<Owner> {
  const st = await lstat(p);
  return { uid: st.uid, gid: st.gid };
}

function statOrNull(p: string): Stats | null {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}
