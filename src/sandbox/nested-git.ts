// A repository nested in the work tree (a submodule's `.git`, a file that points into
// .git/modules, or a folder) is read by the action's own git: `git status` and `git add --all`
// look into it and run the filters its config names. A call that may write the checkout could plant
// one (`sub/.git` with a `filter.<x>.clean` command) for the action to run as itself after the call.
// So after every such call each `.git` below the top is put back as it was before the run: a new one
// is removed, a changed gitfile is written back.
import { lstat, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { asRoot, exec, type Privilege } from './privilege.js';

/** Each `.git` below the top: a gitfile's bytes, or 'dir'. */
export type NestedGit = ReadonlyMap<string, Buffer | 'dir'>;

export async function nestedGitEntries(top: string): Promise<NestedGit> {
  const own = path.join(top, '.git');
  const r = await exec('find', [top, '-xdev', '-path', own, '-prune', '-o', '-name', '.git', '-print0']);
  const found = new Map<string, Buffer | 'dir'>();
  for (const p of r.stdout.split('\0').filter(Boolean)) {
    const st = await lstat(p).catch(() => null);
    if (!st) continue;
    found.set(p, st.isDirectory() ? 'dir' : await readFile(p).catch(() => Buffer.alloc(0)));
  }
  return found;
}

/** Puts every `.git` below the top back as `before` had it; returns the paths it changed. */
export async function restoreNestedGit(privilege: Privilege, top: string, before: NestedGit): Promise<string[]> {
  const now = await nestedGitEntries(top);
  const changed: string[] = [];
  for (const [p, was] of now) {
    const same = before.has(p) && (was === 'dir' ? before.get(p) === 'dir' : sameBytes(before.get(p), was));
    if (same) continue;
    await asRoot(privilege, ['rm', '-rf', '--one-file-system', '--', p]);
    changed.push(p);
  }
  for (const [p, was] of before) {
    if (was === 'dir' || (now.has(p) && sameBytes(now.get(p), was) && !changed.includes(p))) continue;
    await writeFile(p, was, { mode: 0o644 });
    if (!changed.includes(p)) changed.push(p);
  }
  return changed;
}

function sameBytes(a: Buffer | 'dir' | undefined, b: Buffer | 'dir'): boolean {
  return Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b);
}
