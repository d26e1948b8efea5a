// The action started the way a GitHub-hosted runner starts it: as an ordinary user with
// passwordless sudo (the hosted `runner` user), not as root. The suite's setup creates such a
// user when it runs as root, with a name of its own per suite run (two suites side by side do
// not collide), and removes it at the end. A run started this way reaches the sandbox through
// `sudo -n`, as on GitHub.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const VAR = 'PRL_TEST_RUNNER_USER';

/**
 * Both privilege paths, for it.each: the action as root (containers, self-hosted runners) and as an
 * ordinary user with passwordless sudo (GitHub's hosted runners).
 */
export const PRIVILEGE_PATHS = [
  { how: 'as root', asRunnerUser: false },
  { how: 'as an ordinary user with passwordless sudo', asRunnerUser: true },
];

export interface RunnerUser {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

/** Creates the user (root only); returns its removal. Sets the variable test workers read. */
export function createRunnerUser(): () => void {
  removeOrphans();
  const name = `prl-runner-${process.pid}`;
  const home = `/home/${name}`;
  execFileSync('useradd', ['--create-home', '--home-dir', home, '--shell', '/bin/sh', '--user-group', name]);
  // As on hosted runners: HOME 0750, and sudo without a password.
  chmodSync(home, 0o750);
  const sudoers = `/etc/sudoers.d/${name}`;
  writeFileSync(sudoers, `${name} ALL=(ALL) NOPASSWD:ALL\n`, { mode: 0o440 });
  process.env[VAR] = name;
  return () => {
    rmSync(sudoers, { force: true });
    spawnSync('pkill', ['-KILL', '-u', name]);
    spawnSync('userdel', ['--remove', name]);
  };
}

/**
 * The runner users of suites that were killed before their teardown: each is named after its
 * suite's process, which is gone. A suite running beside this one keeps its user.
 */
function removeOrphans(): void {
  const users = spawnSync('getent', ['passwd'], { encoding: 'utf8' }).stdout ?? '';
  for (const m of users.matchAll(/^prl-runner-(\d+):/gm)) {
    if (alive(Number(m[1]))) continue;
    const name = `prl-runner-${m[1]}`;
    rmSync(`/etc/sudoers.d/${name}`, { force: true });
    spawnSync('pkill', ['-KILL', '-u', name]);
    spawnSync('userdel', ['--remove', name]);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The suite's runner user, or null where the suite did not make one (not root). */
export function runnerUser(): RunnerUser | null {
  const name = process.env[VAR];
  if (!name) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
  return { name, uid: id('-u'), gid: id('-g'), home: `/home/${name}` };
}

/** Gives the runner user the world it runs in, as actions/checkout makes the checkout the runner's. */
export function handOver(user: Pick<RunnerUser, 'uid' | 'gid'>, dirs: readonly string[]): void {
  for (const dir of dirs) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
}

let bundleCopy: string | null = null;
const nodeCopies = new Map<string, string>();

/**
 * The bundle as the runner user can reach it: itself where every folder above it may be entered
 * by others, else a copy (dist/, prompts/, action.yml) in a folder of its own that anyone may read
 * (`.ci/run` clones into a private `mktemp -d` folder).
 */
export function reachableBundle(dist: string): string {
  if (!privateAncestor(dist)) return dist;
  if (!bundleCopy) {
    const root = path.resolve(path.dirname(dist), '..');
    const copy = mkdtempSync(path.join(tmpdir(), 'prl-runner-bundle-'));
    for (const part of ['dist', 'prompts', 'action.yml'])
      cpSync(path.join(root, part), path.join(copy, part), { recursive: true });
    execFileSync('chmod', ['-R', 'a+rX', copy]);
    process.on('exit', () => rmSync(copy, { recursive: true, force: true }));
    bundleCopy = path.join(copy, 'dist', path.basename(dist));
  }
  return bundleCopy;
}

/** The Node binary as the runner user can reach it (a copy where it lies in a private folder). */
export function reachableNode(node: string): string {
  if (!privateAncestor(node)) return node;
  let copy = nodeCopies.get(node);
  if (!copy) {
    const dir = mkdtempSync(path.join(tmpdir(), 'prl-runner-node-'));
    chmodSync(dir, 0o755);
    mkdirSync(path.join(dir, 'bin'), { mode: 0o755 });
    copy = path.join(dir, 'bin', 'node');
    cpSync(node, copy);
    chmodSync(copy, 0o755);
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    nodeCopies.set(node, copy);
  }
  return copy;
}

/** A folder above `p` that others may not enter. */
function privateAncestor(p: string): boolean {
  for (let dir = path.dirname(path.resolve(p)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return true;
  }
  return false;
}
