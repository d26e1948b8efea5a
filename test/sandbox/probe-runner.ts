// The set-up the sandbox tests share that run a bundled probe on both privilege paths: an
// ordinary user with passwordless sudo (as on GitHub's hosted runners), a folder below /opt
// (outside /tmp: every call has a /tmp of its own) with sub-folders owned by root or by that
// user, the probe bundled into it, and the call watchdog beside it as dist/ holds it. Needs root;
// what it makes (the user, its sudoers rule, the folder) is removed by `remove`.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type BuildOptions } from 'esbuild';

const WATCHDOG = path.join(import.meta.dirname, '../../src/process/call-watchdog.sh');

export interface ProbeRunner {
  /** The ordinary user's name. */
  user: string;
  /** The folder below /opt: the probe, the watchdog and the sub-folders. */
  dir: string;
  remove(): void;
}

/**
 * Makes the user `<name>-<pid>`, its folder and its sub-folders (`owners`: name → 'root' or
 * 'runner'), and a sudoers rule unless `sudo` is false (without sudo there is no
 * /etc/sudoers.d to write to).
 */
export function makeProbeRunner(
  name: string,
  opts: { owners: Record<string, 'root' | 'runner'>; sudo: boolean },
): ProbeRunner {
  const user = `${name}-${process.pid}`;
  const sudoers = `/etc/sudoers.d/${user}`;
  const dir = mkdtempSync(`/opt/${name}-`);
  chmodSync(dir, 0o755);
  execFileSync('useradd', ['--system', '--user-group', '--shell', '/bin/sh', user]);
  for (const [sub, owner] of Object.entries(opts.owners)) {
    mkdirSync(path.join(dir, sub), { mode: 0o755 });
    execFileSync('chown', [`${owner === 'root' ? 'root' : user}:`, path.join(dir, sub)]);
  }
  if (opts.sudo) writeFileSync(sudoers, `${user} ALL=(ALL) NOPASSWD:ALL\n`, { mode: 0o440 });
  return {
    user,
    dir,
    remove() {
      rmSync(sudoers, { force: true });
      spawnSync('userdel', [user]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Bundles the probe (`source`: an entry file, or esbuild's stdin) into `dir`/probe.mjs, readable by all. */
export async function bundleProbe(dir: string, source: Pick<BuildOptions, 'entryPoints' | 'stdin'>): Promise<void> {
  const outfile = path.join(dir, 'probe.mjs');
  await build({ ...source, bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'silent' });
  chmodSync(outfile, 0o644);
}

/** Each call starts under the watchdog the bundle finds beside it, as dist/ holds it. */
export function copyWatchdog(dir: string): void {
  copyFileSync(WATCHDOG, path.join(dir, 'call-watchdog.sh'));
}
