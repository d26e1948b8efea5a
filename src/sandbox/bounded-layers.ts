// Where what a call writes goes, and what bounds it (the `home=` and `disk=` keys of call-limits).
// A read-only call (a reviewer, the analyzer, the gate) needs little room: its CLI's sessions and
// caches. So its layer over HOME, or its empty HOME, and its agent's state folder are each a tmpfs of
// a fixed size; the kernel charges a tmpfs page to the cgroup of the process that wrote it, so what
// it writes there counts in its memory bound too. A call that runs the PR's code (verify, hooks, the
// fixer) may download gigabytes of dependencies: its layers stay on disk, and the watchdog holds
// each disk it writes to above a free-space floor (call-watchdog.sh). Disk quotas would bound them
// more exactly, but a hosted runner's root file system has none.
import { statfsSync, statSync } from 'node:fs';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { asRoot, mustAsRoot, type Privilege } from './privilege.js';

/** A tmpfs's name in the mount table: the post step finds what a killed run left by it (leftover.ts). */
export function layerSource(user: string): string {
  return `${user}-layer`;
}

/** Mounts a tmpfs of `sizeBytes` on `dir` (an empty folder), owned by the action's user, mode 0700. */
export async function mountBoundedTmpfs(
  privilege: Privilege,
  dir: string,
  sizeBytes: number,
  user: string,
): Promise<void> {
  const options = `size=${sizeBytes},mode=0700,uid=${process.getuid!()},gid=${process.getgid!()},nosuid,nodev`;
  await mustAsRoot(privilege, ['mount', '-t', 'tmpfs', '-o', options, layerSource(user), dir]);
}

/** Unmounts a tmpfs of mountBoundedTmpfs (lazily when still busy); what it held is gone. */
export async function unmountBoundedTmpfs(privilege: Privilege, dir: string): Promise<void> {
  const r = await asRoot(privilege, ['umount', '--', dir]);
  if (r.code !== 0) await mustAsRoot(privilege, ['umount', '-l', '--', dir]);
}

/**
 * The agents' state folders of read-only calls, each moved onto a tmpfs of its own the first time a
 * call owns it and kept there for the run: a reviewer resumes its session in the next round.
 */
export class BoundedStateFolders {
  private readonly mounted = new Map<string, Promise<void>>();

  constructor(
    private readonly privilege: Privilege,
    private readonly user: string,
    private readonly sizeBytes: number,
  ) {}

  /** Puts each folder on its tmpfs, with what the action wrote there before (its config files). */
  async bound(dirs: readonly string[]): Promise<void> {
    await Promise.all(
      dirs.map((dir) => {
        let done = this.mounted.get(dir);
        if (!done) {
          done = this.move(dir);
          this.mounted.set(dir, done);
        }
        return done;
      }),
    );
  }

  /** The folders on a tmpfs of their own now. */
  folders(): string[] {
    return [...this.mounted.keys()];
  }

  /** Unmounts every folder's tmpfs (at the run's end: nothing reads a state folder later). */
  async unmountAll(): Promise<void> {
    for (const [dir, done] of this.mounted) {
      if (await done.then(() => true).catch(() => false)) await unmountBoundedTmpfs(this.privilege, dir);
    }
    this.mounted.clear();
  }

  // The folder holds only what the action wrote (no call has owned it yet): it is copied as the
  // action's user, and only the mount needs root.
  private async move(dir: string): Promise<void> {
    const kept = `${dir}.prl-disk`;
    await rename(dir, kept);
    await mkdir(dir, { mode: 0o700 });
    await mountBoundedTmpfs(this.privilege, dir, this.sizeBytes, this.user);
    await cp(kept, dir, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    await rm(kept, { recursive: true, force: true });
  }
}

/** Those of `dirs` (tmpfs mounts of this module) with less than 1 MiB left: a write there failed "no space". */
export function filledLayers(dirs: readonly string[]): string[] {
  return dirs.filter((dir) => {
    try {
      const s = statfsSync(dir);
      return s.bavail * s.bsize < 1024 * 1024;
    } catch {
      return false;
    }
  });
}

/** One folder per file system among `dirs` (those that exist): the watchdog looks at each disk once. */
export function onePerDisk(dirs: readonly string[]): string[] {
  const seen = new Set<number>();
  const out: string[] = [];
  for (const dir of dirs) {
    let dev: number;
    try {
      dev = statSync(dir).dev;
    } catch {
      continue;
    }
    if (seen.has(dev)) continue;
    seen.add(dev);
    out.push(path.resolve(dir));
  }
  return out;
}
