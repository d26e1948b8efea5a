// A trusted command line (a verify command or hook from the workflow or the base branch's config,
// the `command` agent's command line from the workflow) may run a program kept outside the
// checkout, e.g. a script in RUNNER_TEMP that an earlier step wrote; and a variable the workflow
// passes on may name a file (a CA bundle, a log the command writes, a database's socket). Each
// absolute path they name is shown to the call as it is (its owner and mode decide what the call
// may do), that path alone, or the folder that would hold it when it does not exist yet. Never
// used for a command an agent chose.
//
// Devices and the kernel's views stay the call's own: nothing under /dev, /proc or /sys, and no
// device node, is shown. The call's own /dev (bubblewrap's --dev: null, zero, full, random,
// urandom, tty, fd, stdin, stdout, stderr, pts, shm) and /proc (--proc, of its own PID namespace)
// hold what `2>/dev/null` or `/proc/self/status` need. A host device mounted back has no device
// access in the call (every bind mount is nodev), so `>/dev/null` would fail; the host's /dev
// replacing the call's would take them all; and the host's /proc would show the host's processes.
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** The folders whose contents the call gets from the kernel, not from the host. */
const KERNEL_VIEWS = ['/dev', '/proc', '/sys'];

/** The absolute paths a shell command line (or a variable's value) names, or their existing folders. */
export function namedPaths(text: string): string[] {
  const words = text.split(/[\s'"`;|&()<>=,:]+/);
  const found = words.filter((w) => w.startsWith('/') && w.length > 1).map((w) => path.resolve(w));
  const shown = found.map((p) => (existsSync(p) ? p : path.dirname(p))).filter((p) => p !== '/' && existsSync(p));
  return [...new Set(shown)].filter((p) => !kernelView(p) && !kernelView(realpathOrSelf(p)) && !deviceNode(p));
}

/** A kernel view folder, a path below one, or a folder above one (naming `/` is never shown either). */
function kernelView(p: string): boolean {
  return KERNEL_VIEWS.some((k) => p === k || p.startsWith(`${k}/`) || k.startsWith(`${p}/`));
}

function deviceNode(p: string): boolean {
  try {
    const st = statSync(p);
    return st.isCharacterDevice() || st.isBlockDevice();
  } catch {
    return false;
  }
}

function realpathOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
