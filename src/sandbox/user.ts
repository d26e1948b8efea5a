// The sandbox user: created fresh for each run, so that killing "every process of that user"
// after a call can only hit this run's processes (two jobs on one self-hosted machine, or two
// test files, each get their own), and deleted at the end. It has no password, no login
// shell, no supplementary group and no sudo rule, and a private HOME no one else can read.
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asRoot, exec, mustAsRoot, type Privilege } from './privilege.js';

export interface SandboxUser {
  name: string;
  uid: number;
  gid: number;
  /** Private HOME, 0700, owned by the user. */
  home: string;
}

// Groups whose members can become root or read other users' files (docker's socket is root).
const PRIVILEGED_GROUPS = new Set(['root', 'sudo', 'admin', 'wheel', 'docker', 'adm', 'disk', 'lxd', 'shadow']);

export async function createSandboxUser(privilege: Privilege, workDir: string): Promise<SandboxUser> {
  const name = `prl-${randomBytes(5).toString('hex')}`;
  const home = await mkdtemp(path.join(tmpdir(), `${name}-home-`));
  await mustAsRoot(privilege, [
    'useradd',
    '--system',
    '--user-group',
    '--no-create-home',
    '--home-dir',
    home,
    '--shell',
    '/usr/sbin/nologin',
    name,
  ]);
  const user = { name, uid: await idNumber(['-u', name]), gid: await idNumber(['-g', name]), home };
  try {
    await checkUnprivileged(privilege, user);
    // Git refuses a repository owned by someone else ("dubious ownership") unless it is listed.
    await writeFile(path.join(home, '.gitconfig'), `[safe]\n\tdirectory = ${workDir}\n`, { mode: 0o644 });
    await mustAsRoot(privilege, ['chown', '-R', `${user.uid}:${user.gid}`, home]);
    await mustAsRoot(privilege, ['chmod', '0700', home]);
  } catch (e) {
    await deleteSandboxUser(privilege, user);
    throw e;
  }
  return user;
}

async function idNumber(args: string[]): Promise<number> {
  const r = await exec('id', args);
  const n = Number(r.stdout.trim());
  if (r.code !== 0 || !Number.isInteger(n)) throw new Error(`id ${args.join(' ')} failed: ${r.stderr.trim()}`);
  return n;
}

async function checkUnprivileged(privilege: Privilege, user: SandboxUser): Promise<void> {
  if (user.uid === 0 || user.gid === 0) throw new Error(`sandbox user ${user.name} has uid or gid 0`);
  const groups = (await exec('id', ['-Gn', user.name])).stdout.trim().split(/\s+/);
  const bad = groups.filter((g) => PRIVILEGED_GROUPS.has(g));
  if (bad.length) throw new Error(`sandbox user ${user.name} is in privileged groups: ${bad.join(', ')}`);
  // A sudoers rule for ALL (or a group the user is in) would let it become root.
  // (sudo may be missing where we are root: then there is no rule either; exit 127.)
  const sudo = await asRoot(privilege, ['sudo', '-n', '-l', '-U', user.name]);
  if (sudo.code === 0 && !/not allowed to run sudo/i.test(sudo.stdout + sudo.stderr)) {
    throw new Error(`sandbox user ${user.name} may run sudo: ${sudo.stdout.trim().slice(0, 200)}`);
  }
}

/** Removes the user and its HOME. Every process of the user must be gone (killAll) first. */
export async function deleteSandboxUser(privilege: Privilege, user: SandboxUser): Promise<void> {
  await mustAsRoot(privilege, ['userdel', user.name]).catch(() => undefined);
  await mustAsRoot(privilege, ['rm', '-rf', '--one-file-system', user.home]).catch(() => undefined);
}
