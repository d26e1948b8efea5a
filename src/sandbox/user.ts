// The sandbox user: created fresh for each run, so that killing "every process of that user"
// can only hit this run's processes (two jobs on one self-hosted machine, or two test files,
// each get their own), and deleted at the end. It has no password, no login shell, no
// supplementary group and no sudo rule. Its uid is drawn at random far above the ranges
// `useradd` hands out (system accounts below 1000, people up to 60000, subordinate ids of user
// namespaces from 100000) and skips ids in use or listed in /etc/subuid or /etc/subgid, so a
// later run, or another account, never inherits what an earlier sandbox user left behind.
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asRoot, exec, mustAsRoot, type Privilege } from './privilege.js';

export interface SandboxUser {
  name: string;
  uid: number;
  gid: number;
  /** The folder that holds each call's fresh HOME; the action's own, entered but not listed by others. */
  base: string;
}

const UID_LOW = 1_000_000_000;
const UID_HIGH = 2_000_000_000;

// Groups whose members can become root or read other users' files (docker's socket is root).
const PRIVILEGED_GROUPS = new Set(['root', 'sudo', 'admin', 'wheel', 'docker', 'adm', 'disk', 'lxd', 'shadow']);

/**
 * `home` is the account's home in the password database, never created: the runner's HOME when
 * calls are shown it (home-view.ts). Java reads its `user.home` from there, not from $HOME, and
 * Maven, Gradle and sbt find `~/.m2`, `~/.gradle` and `~/.ivy2` by it.
 */
export async function createSandboxUser(privilege: Privilege, home = '/nonexistent'): Promise<SandboxUser> {
  const name = `prl-${randomBytes(5).toString('hex')}`;
  const id = await freeId();
  await mustAsRoot(privilege, ['groupadd', '--gid', String(id), name]);
  const base = await mkdtemp(path.join(tmpdir(), `${name}-`));
  const user = { name, uid: id, gid: id, base };
  try {
    await mustAsRoot(privilege, [
      'useradd',
      '--uid',
      String(id),
      '--gid',
      String(id),
      '--no-create-home',
      '--home-dir',
      home,
      '--shell',
      '/usr/sbin/nologin',
      '--no-user-group',
      name,
    ]);
    if ((await idNumber(['-u', name])) !== id || (await idNumber(['-g', name])) !== id) {
      throw new Error(`sandbox user ${name} did not get the id ${id}`);
    }
    await checkUnprivileged(privilege, user);
  } catch (e) {
    await deleteSandboxUser(privilege, user).catch(() => undefined);
    throw e;
  }
  return user;
}

/** An id no account, group or subordinate range uses, and no process runs as. */
async function freeId(): Promise<number> {
  const ranges = [...(await subordinateRanges('/etc/subuid')), ...(await subordinateRanges('/etc/subgid'))];
  for (let attempt = 0; attempt < 20; attempt++) {
    const id = randomInt(UID_LOW, UID_HIGH);
    if (ranges.some(([start, count]) => id >= start && id < start + count)) continue;
    const [user, group, procs] = await Promise.all([
      exec('getent', ['passwd', String(id)]),
      exec('getent', ['group', String(id)]),
      exec('pgrep', ['-U', String(id)]),
    ]);
    if (user.code === 2 && group.code === 2 && procs.code === 1) return id;
  }
  throw new Error('found no free user id for the sandbox user in 20 attempts');
}

async function subordinateRanges(file: string): Promise<Array<[number, number]>> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').flatMap((line) => {
    const [, start, count] = line.split(':');
    return start && count ? [[Number(start), Number(count)] as [number, number]] : [];
  });
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

/**
 * Removes the user, its group and its folders; every process of the user must be gone first.
 * Throws naming each step that failed and why, after trying them all.
 */
export async function deleteSandboxUser(privilege: Privilege, user: SandboxUser): Promise<void> {
  const failures: string[] = [];
  const step = async (argv: string[]): Promise<void> => {
    const r = await asRoot(privilege, argv);
    if (r.code !== 0) failures.push(`${argv.join(' ')} (exit ${r.code}): ${r.stderr.trim().slice(-300)}`);
  };
  const account = await exec('getent', ['passwd', user.name]);
  if (account.code === 0) await step(['userdel', user.name]);
  const group = await exec('getent', ['group', user.name]);
  if (group.code === 0) await step(['groupdel', user.name]);
  await step(['rm', '-rf', '--one-file-system', user.base]);
  // Files it left where everyone may write (/tmp) stay, owned by an id no later account gets:
  // the workflow's own commands may have written output there that later steps read.
  const left = await exec('getent', ['passwd', user.name]);
  if (left.code === 0) failures.push(`the account ${user.name} still exists`);
  if (failures.length) throw new Error(`removing the sandbox user ${user.name} failed: ${failures.join('; ')}`);
}
