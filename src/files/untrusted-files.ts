// Files in a folder a sandboxed call could write: a checkout the fixer or a verify command
// changed, a CLI's state folder a call owned. The action reads and writes them as its own user,
// which is root or can read the token. What a call can leave at a file's name: a symbolic link (to
// /dev/zero, or to a file of the action's that a write would overwrite), a FIFO (opening it blocks
// until a writer comes, which is never), a device, a 2 GB sparse file, or a link in place of a
// folder above it (a write through it lands anywhere). So such a file is read only when it is a
// regular file of bounded size, checked on the descriptor opened without following a link and
// without blocking; it is written only below folders checked to be real folders, as a new file
// renamed over the name, so whatever stood there (a link, a FIFO, a hard link) is replaced and
// never written through. A check and its use are two steps: they hold because nothing of a call
// runs once it has ended (its PID namespace ends with it; without namespaces, the sweep that
// follows the calls, docs/security.md).
import { randomBytes } from 'node:crypto';
import { constants, type Dirent, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;

/** What stands at a path, for a log line. */
export function kindOf(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a folder';
  return 'a regular file';
}

/** A file's bytes; or what stands there instead (`refused`); null when nothing does. */
export type UntrustedRead = { bytes: Buffer } | { refused: string } | null;

/** The bytes of a regular file of at most `maxBytes`; anything else is refused, never opened or read whole. */
export async function readRegularFile(file: string, maxBytes: number): Promise<UntrustedRead> {
  const seen = await lstat(file).catch(() => null);
  if (!seen) return null;
  if (!seen.isFile()) return { refused: kindOf(seen) };
  if (seen.size > maxBytes) return { refused: `larger than ${maxBytes} bytes (${seen.size} bytes)` };
  let handle;
  try {
    // O_NONBLOCK: a FIFO put there since the lstat opens at once (and is refused below) instead of
    // waiting for a writer; O_NOFOLLOW: a link put there fails to open.
    handle = await open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  } catch (e) {
    return { refused: `unreadable (${(e as NodeJS.ErrnoException).code ?? String(e)})` };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile() || st.ino !== seen.ino || st.dev !== seen.dev)
      return { refused: `replaced by ${kindOf(st)} while opened` };
    // What the file held when it was opened, never more than the bound, even if it grows meanwhile.
    const bytes = Buffer.alloc(Math.min(st.size, maxBytes));
    let got = 0;
    while (got < bytes.length) {
      const { bytesRead } = await handle.read(bytes, got, bytes.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { bytes: bytes.subarray(0, got) };
  } finally {
    await handle.close();
  }
}

/** What stands in the way of a real folder at `rel` below `top` (a folder no call can replace), or null. */
export async function notAFolder(top: string, rel: string): Promise<string | null> {
  let dir = top;
  for (const part of partsOf(rel)) {
    dir = path.join(dir, part);
    const st = await lstat(dir).catch(() => null);
    if (!st) return `${dir} is missing`;
    if (!st.isDirectory()) return `${dir} is ${kindOf(st)}`;
  }
  return null;
}

/**
 * Makes `rel` below `top` a chain of real folders (`top` is the action's, made if missing): what
 * stands on the way and is not a folder (a link, a FIFO, a file) is logged, removed, and made again
 * as a folder of the action's. Returns the folder's path.
 */
async function remakeFolders(top: string, rel: string, log: (line: string) => void): Promise<string> {
  await mkdir(top, { recursive: true, mode: 0o700 });
  const topStat = await lstat(top);
  if (!topStat.isDirectory()) throw new Error(`${top} is ${kindOf(topStat)}, not a folder the action made`);
  let dir = top;
  for (const part of partsOf(rel)) {
    dir = path.join(dir, part);
    const st = await lstat(dir).catch(() => null);
    if (st?.isDirectory()) continue;
    if (st) {
      log(`removed ${dir}: it was ${kindOf(st)} where the action keeps a folder of its own`);
      await rm(dir, { recursive: true, force: true });
    }
    await mkdir(dir, { mode: 0o700 });
  }
  return dir;
}

/**
 * Writes `data` as `file`, whose folder the caller checked: a new file is made beside it without
 * following a link and renamed over the name. What stood there and was not a regular file is logged.
 */
export async function replaceFile(
  file: string,
  data: string | Buffer,
  opts: { mode: number; log: (line: string) => void },
): Promise<void> {
  const st = await lstat(file).catch(() => null);
  if (st && !st.isFile()) {
    opts.log(`replaced ${file}: it was ${kindOf(st)} where the action writes a file`);
    // rename(2) cannot replace a folder with a file.
    if (st.isDirectory()) await rm(file, { recursive: true, force: true });
  }
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, opts.mode);
  try {
    await handle.writeFile(data);
  } catch (e) {
    await handle.close();
    await rm(tmp, { force: true });
    throw e;
  }
  await handle.close();
  await rename(tmp, file).catch(async (e: unknown) => {
    await rm(tmp, { force: true });
    throw e;
  });
}

/** `remakeFolders` for the file's folder, then `replaceFile`: a file the action writes below a folder of its own. */
export async function writeBelow(
  top: string,
  rel: string,
  data: string | Buffer,
  opts: { mode: number; log: (line: string) => void },
): Promise<string> {
  const dir = await remakeFolders(top, path.dirname(rel), opts.log);
  const file = path.join(dir, path.basename(rel));
  await replaceFile(file, data, opts);
  return file;
}

/**
 * The entries below `dir` that are not folders (relative paths, sorted), found without following a
 * link to a folder, at most `max` entries looked at; `cut` when there were more, or what `dir` is
 * when it is not a folder.
 */
export async function entriesBelow(
  dir: string,
  max: number,
): Promise<{ files: string[]; cut: boolean; refused?: string }> {
  const st = await lstat(dir).catch(() => null);
  if (!st) return { files: [], cut: false };
  if (!st.isDirectory()) return { files: [], cut: false, refused: kindOf(st) };
  const files: string[] = [];
  const pending = [''];
  let seen = 0;
  while (pending.length) {
    const rel = pending.pop()!;
    const entries: Dirent[] = await readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (++seen > max) return { files: files.sort(), cut: true };
      const p = rel ? `${rel}/${e.name}` : e.name;
      // A Dirent's type is the entry's own (lstat's): a link to a folder is not a folder here.
      if (e.isDirectory()) pending.push(p);
      else files.push(p);
    }
  }
  return { files: files.sort(), cut: false };
}

function partsOf(rel: string): string[] {
  const parts = path
    .normalize(rel)
    .split(path.sep)
    .filter((p) => p && p !== '.');
  if (parts.includes('..') || path.isAbsolute(rel)) throw new Error(`${rel} is not a path below its folder`);
  return parts;
}
