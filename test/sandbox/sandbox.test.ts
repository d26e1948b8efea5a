// The sandbox user, for real: these tests run as root (as this project's CI does), so the
// action can create its user. Each check is one a hostile fixer or verify command would try.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';
import { emptyHome } from './empty-home.js';

const isRoot = process.getuid?.() === 0;
let top: string;
let repo: string;
/** Each describe opens the sandbox it needs, once the checkout is as its tests want it. */
let sandbox: Sandbox | undefined;
/** HOME for the sandboxes: these tests are not about its view. */
let home: ReturnType<typeof emptyHome>;

beforeAll(() => {
  home = emptyHome();
});
afterAll(() => home.remove());
beforeEach(async () => {
  // mkdtemp makes 0700 folders: the sandbox must be given a way in, and only that.
  top = mkdtempSync(path.join(tmpdir(), 'sandbox-test-'));
  repo = path.join(top, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(path.join(repo, 'a.txt'), 'a\n');
  execFileSync('git', ['-C', repo, 'add', 'a.txt']);
});
async function open(opts: { env?: NodeJS.ProcessEnv; namespaces?: boolean } = {}): Promise<Sandbox> {
  sandbox = await createSandbox('auto', repo, { env: home.env, ...opts });
  return sandbox;
}
/** Folders a test made outside `top`, removed after it. */
const afterCleanups: (() => void)[] = [];

/**
 * A folder everyone may enter, outside /tmp: every call has a /tmp of its own, so a file below
 * /tmp is out of its sight whether the sandbox hides it or not.
 */
function outsideTmp(): string {
  const dir = mkdtempSync('/opt/prl-sandbox-test-');
  chmodSync(dir, 0o755);
  afterCleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  rmSync(top, { recursive: true, force: true });
  for (const clean of afterCleanups.splice(0)) clean();
});

const sh = (script: string, access: Parameters<Sandbox['run']>[1] = {}) =>
  sandbox!.run(
    { command: '/bin/sh', args: ['-c', script], cwd: repo, env: { PATH: process.env.PATH! }, timeoutMs: 10_000 },
    access,
  );

/** Host pids of running processes whose command line is exactly `cmdline`. */
function pidsOf(cmdline: string): number[] {
  const r = spawnSync('pgrep', ['-x', '-f', cmdline], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .filter((pid) => alive(pid));
}

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
  beforeEach(() => open());
  it('runs as a fresh unprivileged user with a private HOME', async () => {
    expect(sandbox!.user).toMatch(/^prl-[0-9a-f]{10}$/);
    const r = await sh('id -u; id -G; test -w "$HOME" && echo home-writable; stat -c %a "$HOME"');
    const [uid, groups, writable, mode] = r.stdout.trim().split('\n');
    // Far above what useradd hands out (system accounts, people, subordinate ids).
    expect(Number(uid)).toBeGreaterThanOrEqual(1_000_000_000);
    expect(groups!.split(' ')).toHaveLength(1);
    expect(writable).toBe('home-writable');
    expect(mode).toBe('700');
  });

  it('cannot read the environ or memory of the process that started it', async () => {
    const r = await sh(
      `cat /proc/${process.pid}/environ >/dev/null 2>&1 && echo environ; ` +
        `dd if=/proc/${process.pid}/mem bs=1 count=1 skip=4096 >/dev/null 2>&1 && echo mem; echo done`,
    );
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
    const r = await sh(
      'echo x > a.txt 2>/dev/null && echo written; echo n > n.txt 2>/dev/null && echo created; echo done',
    );
    expect(r.stdout.trim()).toBe('done');
    expect(readFileSync(path.join(repo, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('leaves no setuid file behind for the owner to run', async () => {
    await sh('cp /bin/true ./t && chmod u+s ./t', { workTree: repo });
    expect(statSync(path.join(repo, 't')).mode & 0o6000).toBe(0);
  });

  it('kills a process that escaped its group and its marker once the call ends', async () => {
    // The pid a call sees is its namespace's: look for the process by its unique command line.
    const tag = String(600 + Math.floor(Math.random() * 1e6));
    const r = await sh(`setsid env -u REVIEW_LOOP_INVOCATION_ID sleep ${tag} >/dev/null 2>&1 & echo started`);
    expect(r.stdout.trim()).toBe('started');
    expect(pidsOf(`sleep ${tag}`)).toEqual([]);
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
    const name = sandbox!.user!;
    await sandbox!.close();
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

describe.runIf(isRoot)("a cancel during a call's set-up", () => {
  beforeEach(() => open());
  it('starts no process, and close() returns once the call has given back what it took', async () => {
    const state = path.join(top, 'state');
    mkdirSync(state, { mode: 0o700 });
    const tag = String(600 + Math.floor(Math.random() * 1e6));
    // run() checks for a cancel, then sets the call up in awaited steps (a fresh HOME, the grants):
    // close() comes while the first of them is under way, as a SIGINT to the action would.
    const call = sh(`echo started > ${state}/started; sleep 5.${tag}`, { owned: [state] });
    const closing = sandbox!.close();
    await expect(call).rejects.toThrow('the sandbox is closed');
    await closing;
    expect(existsSync(path.join(state, 'started'))).toBe(false);
    expect(pidsOf(`sleep 5.${tag}`)).toEqual([]);
    // The folder the call was to own is the action's again: its grant was given back before the user went.
    expect(statSync(state).uid).toBe(process.getuid!());
    expect(statSync(state).mode & 0o777).toBe(0o700);
  });
});

describe.runIf(isRoot)('each call in namespaces of its own', () => {
  beforeEach(() => open({ namespaces: true }));

  it('ends a process that keeps starting its successor and exiting, so it cannot read the next call', async () => {
    // Each generation starts the next in a new session and exits: its pid changes faster than a
    // sweep by uid scans. The next call (a reviewer with its key) must not be reachable.
    const tag = `hop-${process.pid}-${Date.now()}`;
    const hop = path.join(top, 'hop.sh');
    const loot = path.join(top, 'loot');
    mkdirSync(loot);
    chmodSync(loot, 0o777);
    writeFileSync(
      hop,
      `#!/bin/sh\nsetsid /bin/sh ${hop} ${tag} &\n` +
        `cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -a SECRET_KEY >> ${loot}/stolen.txt\n`,
      { mode: 0o755 },
    );
    chmodSync(top, 0o755);
    // Reviewers run in parallel: a call of the same user is under way all along.
    const parallel = sh('sleep 2');
    const first = await sh(`setsid env -u REVIEW_LOOP_INVOCATION_ID /bin/sh ${hop} ${tag} & sleep 0.2; echo started`, {
      workTree: repo,
    });
    expect(first.stdout.trim()).toBe('started');
    const env = { PATH: process.env.PATH!, SECRET_KEY: 'sk-next-call-key' };
    await sandbox!.run({ command: '/bin/sh', args: ['-c', 'sleep 0.5'], cwd: repo, env, timeoutMs: 10_000 }, {});
    await parallel;
    await new Promise((r) => setTimeout(r, 300));
    expect(pidsOf(`/bin/sh ${hop} ${tag}`)).toEqual([]);
    const stolen = existsSync(path.join(loot, 'stolen.txt')) ? readFileSync(path.join(loot, 'stolen.txt'), 'utf8') : '';
    expect(stolen).not.toContain('sk-next-call-key');
  });

  it('gives each call a private /tmp and a fresh HOME: nothing one plants reaches the next', async () => {
    const plant = await sh(
      'echo planted > /tmp/planted && printf "[core]\\n\\tfsmonitor = /tmp/x\\n" > ~/.gitconfig ' + '&& echo ok',
      { workTree: repo },
    );
    expect(plant.stdout.trim()).toBe('ok');
    const next = await sh(
      'test -e /tmp/planted && echo tmp-seen; grep -c fsmonitor ~/.gitconfig; ' +
        'git config --global core.fsmonitor; echo end',
    );
    expect(next.stdout.trim().split('\n')).toEqual(['0', 'end']);
  });

  it('runs a program installed under /tmp, though the rest of /tmp is hidden (a CLI cache may live there)', async () => {
    const bin = path.join(top, 'tools', 'bin');
    mkdirSync(bin, { recursive: true });
    copyFileSync('/bin/echo', path.join(bin, 'say'));
    chmodSync(path.join(top, 'tools'), 0o755);
    chmodSync(bin, 0o755);
    const env = { PATH: process.env.PATH! };
    const r = await sandbox!.run(
      { command: path.join(bin, 'say'), args: ['hi'], cwd: repo, env, timeoutMs: 10_000 },
      {},
    );
    expect(r.stdout.trim(), r.stderr).toBe('hi');
  });

  it('hides RUNNER_TEMP and the runner HOME, even where their modes let everyone in', async () => {
    const outside = outsideTmp();
    const runnerTemp = path.join(outside, '_temp');
    const runnerHome = path.join(outside, 'home');
    for (const d of [runnerTemp, runnerHome]) mkdirSync(d, { mode: 0o755 });
    writeFileSync(path.join(runnerTemp, 'git-credentials-1.config'), 'token\n', { mode: 0o644 });
    writeFileSync(path.join(runnerHome, '.git-credentials'), 'token\n', { mode: 0o644 });
    await sandbox!.close();
    sandbox = await createSandbox('auto', repo, {
      env: { RUNNER_TEMP: runnerTemp, HOME: runnerHome },
      namespaces: true,
    });
    const r = await sh(
      `ls -A ${runnerTemp} ${runnerHome}; cat ${runnerTemp}/* ${runnerHome}/.git-credentials; echo end`,
    );
    expect(r.stdout).not.toContain('token');
    expect(r.stdout).not.toContain('credentials');
    expect(r.stdout.trim().split('\n').at(-1)).toBe('end');
  });

  it("hides a self-hosted runner's own folder and the folders of the step's files", async () => {
    // A self-hosted runner's folder holds its registration and key next to _work, where the job's
    // checkouts lie; in a container job the event payload and file commands lie below /github.
    const outside = outsideTmp();
    const runnerRoot = path.join(outside, 'actions-runner');
    const work = path.join(runnerRoot, '_work');
    mkdirSync(work, { recursive: true, mode: 0o755 });
    chmodSync(runnerRoot, 0o755);
    for (const f of ['.runner', '.credentials', '.credentials_rsaparams']) {
      writeFileSync(path.join(runnerRoot, f), 'runner-secret\n', { mode: 0o644 });
    }
    const stepFiles = path.join(outside, 'github', 'file_commands');
    mkdirSync(stepFiles, { recursive: true, mode: 0o755 });
    writeFileSync(path.join(stepFiles, 'set_env_1'), 'KEY=runner-secret\n', { mode: 0o644 });
    chmodSync(path.join(outside, 'github'), 0o755);
    await sandbox!.close();
    const env = { RUNNER_WORKSPACE: path.join(work, 'app'), GITHUB_ENV: path.join(stepFiles, 'set_env_1') };
    sandbox = await createSandbox('auto', repo, { env, namespaces: true });
    const r = await sh(
      `cat ${runnerRoot}/.credentials ${runnerRoot}/.runner ${stepFiles}/set_env_1; ls -A ${runnerRoot} ` +
        `${stepFiles}; cat a.txt; echo end`,
    );
    expect(r.stdout).not.toContain('runner-secret');
    expect(r.stdout).not.toContain('credentials');
    expect(r.stdout).not.toContain('set_env');
    // The checkout is still there: only the runner's folders are hidden.
    expect(r.stdout.trim().split('\n').slice(-2)).toEqual(['a', 'end']);
  });
});

describe.runIf(isRoot)('the work tree grant', () => {
  it('puts every nested .git back as it was, so the action never reads one a call planted', async () => {
    // A submodule's gitfile, as actions/checkout leaves it, in a folder the PR tracks files in.
    mkdirSync(path.join(repo, 'lib'));
    writeFileSync(path.join(repo, 'lib', 'y.txt'), 'y\n');
    execFileSync('git', ['-C', repo, 'add', 'lib/y.txt']);
    const gitfile = 'gitdir: ../.git/modules/lib\n';
    writeFileSync(path.join(repo, 'lib', '.git'), gitfile);
    await open();
    const plant = await sh(
      'mkdir -p new/.git && printf "[filter \\"x\\"]\\n\\tclean = id\\n" > new/.git/config && ' +
        'rm lib/.git && mkdir -p lib/.git && echo planted > lib/.git/config && echo planted',
      { workTree: repo },
    );
    expect(plant.stdout.trim()).toBe('planted');
    expect(existsSync(path.join(repo, 'new', '.git'))).toBe(false);
    expect(readFileSync(path.join(repo, 'lib', '.git'), 'utf8')).toBe(gitfile);
  });

  it('never follows a tracked folder that a call turned into a link', async () => {
    // The PR tracks s/secret/x; a call replaces s with a link to a folder of root's; the next
    // call's grant must not chown what lies behind the link.
    mkdirSync(path.join(repo, 's', 'secret'), { recursive: true });
    writeFileSync(path.join(repo, 's', 'secret', 'x'), 'tracked\n');
    execFileSync('git', ['-C', repo, 'add', 's/secret/x']);
    const outside = path.join(top, 'outside');
    mkdirSync(path.join(outside, 'secret'), { recursive: true, mode: 0o700 });
    writeFileSync(path.join(outside, 'secret', 'x'), 'root only\n', { mode: 0o600 });
    await open();
    const swap = await sh(`rm -rf s && ln -s ${outside} s && echo swapped`, { workTree: repo });
    expect(swap.stdout.trim()).toBe('swapped');
    await sh('true', { workTree: repo });
    for (const p of [outside, path.join(outside, 'secret'), path.join(outside, 'secret', 'x')]) {
      expect(statSync(p).uid, p).toBe(0);
    }
  });

  it('leaves what an earlier step put in the checkout untouched, and lends what the PR tracks and the run made', async () => {
    const creds = path.join(repo, 'gha-creds-1234.json');
    writeFileSync(creds, '{"token":"oidc-bearer"}\n', { mode: 0o600 });
    mkdirSync(path.join(repo, 'node_modules'));
    writeFileSync(path.join(repo, 'node_modules', 'dep.js'), 'module.exports = 1;\n', { mode: 0o644 });
    await open();
    const r = await sh(
      'cat gha-creds-1234.json 2>/dev/null; rm -f gha-creds-1234.json 2>/dev/null; cat node_modules/dep.js; ' +
        'echo x > node_modules/dep.js 2>/dev/null && echo dep-written; echo changed > a.txt && mkdir -p build && ' +
        'echo 1 > build/out && echo made',
      { workTree: repo },
    );
    expect(r.stdout.trim().split('\n')).toEqual(['module.exports = 1;', 'made']);
    expect(statSync(creds).mode & 0o777).toBe(0o600);
    expect(statSync(creds).uid).toBe(process.getuid!());
    const again = await sh('echo 2 > build/out && echo rewritten', { workTree: repo });
    expect(again.stdout.trim()).toBe('rewritten');
  });
});

describe.runIf(isRoot)('without namespaces (where bubblewrap cannot run)', () => {
  beforeEach(() => open({ namespaces: false }));

  it('says what no longer holds', () => {
    expect(sandbox!.user).toMatch(/^prl-/);
    expect(sandbox!.limits.join(' ')).toContain('outlive the call');
  });

  it('still kills a process that escaped its group and its marker once the call ends', async () => {
    const tag = String(600 + Math.floor(Math.random() * 1e6));
    await sh(`setsid env -u REVIEW_LOOP_INVOCATION_ID sleep ${tag} >/dev/null 2>&1 & echo started`);
    expect(pidsOf(`sleep ${tag}`)).toEqual([]);
  });

  it('still cannot read the environ of the process that started it', async () => {
    const r = await sh(`cat /proc/${process.pid}/environ >/dev/null 2>&1 && echo environ; echo done`);
    expect(r.stdout.trim()).toBe('done');
  });
});

it('runs as the action itself when isolation is off, and says why', async () => {
  const off = await createSandbox('off', repo);
  expect(off.user).toBeNull();
  expect(off.reason).toContain('isolation: off');
  const r = await off.run(
    { command: '/bin/sh', args: ['-c', 'id -u'], cwd: repo, env: { PATH: process.env.PATH! }, timeoutMs: 5000 },
    {},
  );
  expect(Number(r.stdout.trim())).toBe(process.getuid!());
});
