// bubblewrap (the `bubblewrap` package of Debian and Ubuntu, the sandbox of Flatpak and of the
// Codex and Claude Code CLIs on Linux) gives every sandboxed call its own PID namespace and its
// own view of the file system (mount-view.ts). It is chosen over namespace code of our own
// because it is small, audited and packaged everywhere the action runs. GitHub's hosted Ubuntu
// images may lack it: it is installed through apt when missing, and checked with one call.
import { existsSync } from 'node:fs';
import { BWRAP } from './mount-view.js';
import { asRoot, type Privilege } from './privilege.js';

export type Namespaces = { ok: true } | { ok: false; reason: string };

const APT_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C', DEBIAN_FRONTEND: 'noninteractive' };

/** bubblewrap installed (apt when missing) and able to make a PID namespace; or why not. */
export async function ensureNamespaces(privilege: Privilege, log: (line: string) => void): Promise<Namespaces> {
  if (!existsSync(BWRAP)) {
    log('isolation: bubblewrap is not installed; installing it with apt-get');
    const installed = await aptInstall(privilege);
    if (!installed.ok) return installed;
  }
  const probe = await asRoot(privilege, [
    BWRAP, '--die-with-parent', '--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc',
    '--tmpfs', '/tmp', '--', '/bin/true',
  ]);
  if (probe.code !== 0) return { ok: false, reason: `bubblewrap cannot make a namespace here: ${tail(probe.stderr)}` };
  return { ok: true };
}

async function aptInstall(privilege: Privilege): Promise<Namespaces> {
  const install = ['apt-get', 'install', '-y', '--no-install-recommends', 'bubblewrap'];
  let r = await asRoot(privilege, ['env', ...envArgs(), ...install]);
  // A runner image's package lists may be missing or stale: refresh them once and try again.
  if (r.code !== 0) {
    await asRoot(privilege, ['env', ...envArgs(), 'apt-get', 'update', '-q']);
    r = await asRoot(privilege, ['env', ...envArgs(), ...install]);
  }
  if (r.code !== 0 || !existsSync(BWRAP)) {
    return { ok: false, reason: `installing bubblewrap with apt-get failed: ${tail(r.stderr || r.stdout)}` };
  }
  return { ok: true };
}

function envArgs(): string[] {
  return Object.entries(APT_ENV).map(([k, v]) => `${k}=${v}`);
}

function tail(text: string): string {
  return text.trim().split('\n').slice(-3).join(' ').slice(-300) || 'no message';
}
