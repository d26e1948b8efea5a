// The fixer, verify commands and hooks run inside the checkout and, without isolation, can
// write .git/config (a new remote URL, a proxy, a CA file, a filter driver whose clean or
// smudge command `git add` and `git checkout` run: gitattributes(5) "filter") and
// .git/info/attributes (the attributes file with the highest precedence, gitattributes(5)),
// which chooses filters, diff drivers and end-of-line conversion for every path.
//
// The action pins these files as they are before any agent runs and puts them back before
// every later git command of that git function, through the runner's hook (runner.ts). So no
// command the action runs, at any step, sees a setting planted since; the action's own code
// must not write the local config after pinning (the hook would undo it).
import { lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEveryCommand, type Git } from './runner.js';

/**
 * Files under $GIT_DIR that git reads for settings and attributes. config.worktree is read once
 * extensions.worktreeConfig is on (git-config(1) "--worktree"), which `git sparse-checkout`
 * turns on, e.g. for actions/checkout's sparse-checkout input.
 */
const PINNED = ['config', 'config.worktree', 'info/attributes'];

interface PinnedFile {
  file: string;
  /** null: the file did not exist when pinned, and must not exist. */
  content: Buffer | null;
  mode: number;
}

interface Pin {
  restore: () => Promise<void>;
  /** How many restores found something to undo. */
  undone: () => number;
}

const pins = new WeakMap<Git, Promise<Pin>>();

/**
 * Pins the local config files and info/attributes on the first call for `git`; later calls
 * share that pin, so the fixer's own guard restores the run-start state, not what an earlier
 * verify command left. Returns a check that restores now and says whether anything had been
 * undone since this check was made or last asked, including by the hook before a git command.
 */
export async function guardLocalConfig(git: Git): Promise<() => Promise<boolean>> {
  let pending = pins.get(git);
  if (!pending) {
    pending = pin(git);
    pins.set(git, pending);
    pending.catch(() => pins.delete(git));
  }
  const p = await pending;
  let seen = p.undone();
  return async () => {
    await p.restore();
    const changed = p.undone() !== seen;
    seen = p.undone();
    return changed;
  };
}

async function pin(git: Git): Promise<Pin> {
  const r = await git(['rev-parse', '--path-format=absolute', ...PINNED.flatMap((f) => ['--git-path', f])]);
  const files = await Promise.all(r.stdout.split('\n').filter(Boolean).map(snapshot));
  let undone = 0;
  const restore = async () => {
    const changed = await Promise.all(files.map(restoreFile));
    if (changed.includes(true)) undone++;
  };
  beforeEveryCommand(git, restore);
  return { restore, undone: () => undone };
}

async function snapshot(file: string): Promise<PinnedFile> {
  const st = await lstat(file).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
  if (!st) return { file, content: null, mode: 0o644 };
  if (!st.isFile()) throw new Error(`${file} is not a regular file; the action cannot pin it`);
  return { file, content: await readFile(file), mode: st.mode & 0o777 };
}

/** Puts one file back as pinned; true when it had changed. */
async function restoreFile(p: PinnedFile): Promise<boolean> {
  const st = await lstat(p.file).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
  if (p.content === null) {
    if (!st) return false;
    await rm(p.file, { recursive: true, force: true });
    return true;
  }
  // A symlink or a folder in its place counts as a change, whatever it points at.
  if (st?.isFile() && (await readFile(p.file)).equals(p.content)) return false;
  // rename(2) replaces a file or a symlink in one step, but not a folder.
  if (st?.isDirectory()) await rm(p.file, { recursive: true, force: true });
  await writeAtomically(p);
  return true;
}

let tmpSerial = 0;

/**
 * Write and rename: a git command running at the same time (the action runs some in parallel)
 * reads either the old file or the whole pinned one, never a half-written one.
 */
async function writeAtomically(p: PinnedFile): Promise<void> {
  const tmp = `${p.file}.pr-review-loop-${process.pid}-${++tmpSerial}`;
  await mkdir(path.dirname(p.file), { recursive: true });
  await writeFile(tmp, p.content!, { mode: p.mode, flag: 'wx' });
  await rename(tmp, p.file);
}
