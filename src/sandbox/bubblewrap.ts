// bubblewrap (the `bubblewrap` package of Debian and Ubuntu, the sandbox of Flatpak and of the
// Codex and Claude Code CLIs on Linux) gives every sandboxed call its own PID namespace and its
// own view of the file system (mount-view.ts). It is chosen over namespace code of our own
// because it is small, audited and packaged everywhere the action runs. Where the system has
// none, the package is unpacked into a root-owned folder of our own instead of installed: the
// runner's system is left as it was (Codex, which takes a `bwrap` on PATH for its own sandbox, is
// given its own bubblewrap first on its PATH either way: agents/codex-bubblewrap.ts).
import { existsSync } from 'node:fs';
import { openOnTheWay } from '../process/programs.js';
import { asRoot, type Privilege } from './privilege.js';

export type Namespaces = { ok: true; bwrap: string } | { ok: false; reason: string };

const SYSTEM_BWRAP = '/usr/bin/bwrap';
/** Root-owned, so nothing but root can replace the program we run as root. */
const OWN_DIR = '/opt/pr-review-loop-bubblewrap';
const OWN_BWRAP = `${OWN_DIR}/usr/bin/bwrap`;

// `apt-get download` fetches the package without installing it; dpkg-deb unpacks it. A runner
// image's package lists may be missing or stale: they are refreshed once if the download fails.
// The package waits in a folder root makes (mktemp: 0700, root's), so that what is unpacked is
// what was fetched; it goes however the script ends: done, failed (set -e) or stopped by a signal.
export const UNPACK = [
  'set -e',
  'work=$(mktemp -d)',
  `trap 'cd / && rm -rf "$work"' EXIT`,
  "trap 'exit 1' HUP INT TERM",
  'cd "$work"',
  'apt-get download bubblewrap >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1; apt-get download bubblewrap; }',
  `mkdir -p ${OWN_DIR}`,
  `dpkg-deb -x bubblewrap_*.deb ${OWN_DIR}`,
  `chown -R root:root ${OWN_DIR}`,
].join('\n');

/** bubblewrap found (or unpacked) and able to make a PID namespace; or why not. */
export async function ensureNamespaces(privilege: Privilege, log: (line: string) => void): Promise<Namespaces> {
  let bwrap = existsSync(SYSTEM_BWRAP) ? SYSTEM_BWRAP : OWN_BWRAP;
  if (!existsSync(bwrap)) {
    log(`isolation: bubblewrap is not installed; unpacking the bubblewrap package into ${OWN_DIR}`);
    const r = await asRoot(privilege, ['env', 'LC_ALL=C', 'DEBIAN_FRONTEND=noninteractive', 'sh', '-c', UNPACK]);
    if (r.code !== 0 || !existsSync(OWN_BWRAP)) {
      return { ok: false, reason: `fetching bubblewrap with apt-get failed: ${tail(r.stderr || r.stdout)}` };
    }
    bwrap = OWN_BWRAP;
  }
  // It runs as root: a copy in a folder someone else may write (an /opt left open on a self-hosted
  // machine) could have been replaced by theirs.
  const open = openOnTheWay(bwrap);
  if (open) return { ok: false, reason: `${bwrap} is not used: ${open} can be written by others` };
  const probe = await asRoot(privilege, [
    bwrap,
    '--die-with-parent',
    '--unshare-pid',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--',
    '/usr/bin/setpriv',
    '--reuid',
    '65534',
    '--regid',
    '65534',
    '--clear-groups',
    '--no-new-privs',
    '/bin/true',
  ]);
  if (probe.code !== 0) return { ok: false, reason: `bubblewrap cannot make a namespace here: ${tail(probe.stderr)}` };
  return { ok: true, bwrap };
}

function tail(text: string): string {
  return text.trim().split('\n').slice(-3).join(' ').slice(-300) || 'no message';
}
