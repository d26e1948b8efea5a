// The sandbox user, for real: these tests run as root (as this project's CI does), so the
// action can create its user. Each check is one a hostile fixer or verify command would try.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';

const isRoot = process.getuid?.() === 0;
let top: string;
let repo: string;
let sandbox: Sandbox;

beforeEach(async () => {
  // mkdtemp makes 0700 folders: the sandbox must be given a way in, and only that.
  top = mkdtempSync(path.join(tmpdir(), 'sandbox-test-'));
  repo = path.join(top, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(path.join(repo, 'a.txt'), 'a\n');
  sandbox = await createSandbox('auto', repo);
});
afterEach(async () => {
  await sandbox.close();
  rmSync(top, { recursive: true, force: true });
});

const sh = (script: string, access: Parameters<Sandbox['run']>[1] = {}) =>
  sandbox.run({ command: '/bin/sh', args: ['-c', script], cwd: repo, env: { PATH: process.env.PATH! }, timeoutMs: 10_000 }, access);

/** Running, not gone and not a zombie (a killed orphan waits for init to reap it). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe.runIf(isRoot)('the sandbox user', () => {
  it('runs as a fresh unprivileged user with a private HOME', async () => {
    expect(sandbox.user).toMatch(/^prl-[0-9a-f]{10}$/);
    const r = await sh('id -u; id -G; echo "$HOME"; test -w "$HOME" && echo home-writable');
    const [uid, groups, home, writable] = r.stdout.trim().split('\n');
    expect(Number(uid)).toBeGreaterThan(0);
    expect(groups!.split(' ')).toHaveLength(1);
    expect(writable).toBe('home-writable');
    expect(statSync(home!).mode & 0o777).toBe(0o700);
  });

  it('cannot read the environ or memory of the process that started it', async () => {
    const r = await sh(`cat /proc/${process.pid}/environ >/dev/null 2>&1 && echo environ; ` +
      `dd if=/proc/${process.pid}/mem bs=1 count=1 skip=4096 >/dev/null 2>&1 && echo mem; echo done`);
    expect(r.stdout.trim()).toBe('done');
  });

  it('writes the work tree when granted, never .git, and gives everything back', async () => {
    const owner = statSync(repo).uid;
    const r = await sh(
      'echo x > a.txt && echo new > new.txt && mkdir -p d && echo y > d/f && echo tree-ok; ' +
        'echo evil >> .git/config 2>/dev/null && echo config-written; ' +
        'mv .git .git-old 2>/dev/null && echo git-moved; rm -rf .git 2>/dev/null; test -d .git && echo git-kept',
      { workTree: repo },
    );
    expect(r.stdout.trim().split('\n')).toEqual(['tree-ok', 'git-kept']);
    expect(readFileSync(path.join(repo, '.git/config'), 'utf8')).not.toContain('evil');
    for (const f of ['a.txt', 'new.txt', 'd', 'd/f']) expect(statSync(path.join(repo, f)).uid, f).toBe(owner);
    expect(statSync(repo).mode & 0o7777).toBe(0o755);
  });

  it('cannot write the work tree without the grant (reviewers, the analyzer, the gate)', async () => {
    const r = await sh('echo x > a.txt 2>/dev/null && echo written; echo n > n.txt 2>/dev/null && echo created; echo done');
    expect(r.stdout.trim()).toBe('done');
    expect(readFileSync(path.join(repo, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('leaves no setuid file behind for the owner to run', async () => {
    await sh('cp /bin/true ./t && chmod u+s ./t', { workTree: repo });
    expect(statSync(path.join(repo, 't')).mode & 0o6000).toBe(0);
  });

  it('kills a process that escaped its group and its marker once the call ends', async () => {
    const r = await sh('setsid env -u REVIEW_LOOP_INVOCATION_ID sleep 600 >/dev/null 2>&1 & echo $!');
    const pid = Number(r.stdout.trim());
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
  });

  it('does not kill a parallel call of the same user when another one ends', async () => {
    const slow = sh('sleep 1; echo slow-done');
    const fast = await sh('echo fast-done');
    expect(fast.stdout.trim()).toBe('fast-done');
    expect((await slow).stdout.trim()).toBe('slow-done');
  });

  it('gives back the o+x it added above the checkout, and deletes the user, when closed', async () => {
    await sh('true');
    expect(statSync(top).mode & 0o001).toBe(0o001);
    const name = sandbox.user!;
    await sandbox.close();
    expect(statSync(top).mode & 0o777).toBe(0o700);
    expect(readFileSync('/etc/passwd', 'utf8')).not.toContain(`${name}:`);
  });

  it('owns a state folder for the call only', async () => {
    const state = path.join(top, 'state');
    mkdirSync(state, { mode: 0o700 });
    const r = await sh(`echo s > ${state}/session && echo ok`, { owned: [state] });
    expect(r.stdout.trim()).toBe('ok');
    expect(statSync(path.join(state, 'session')).uid).toBe(process.getuid!());
    expect(existsSync(path.join(state, 'session'))).toBe(true);
  });
});

it('runs as the action itself when isolation is off, and says why', async () => {
  const off = await createSandbox('off', repo);
  expect(off.user).toBeNull();
  expect(off.reason).toContain('isolation: off');
  const r = await off.run({ command: '/bin/sh', args: ['-c', 'id -u'], cwd: repo, env: { PATH: process.env.PATH! }, timeoutMs: 5000 }, {});
  expect(Number(r.stdout.trim())).toBe(process.getuid!());
});
