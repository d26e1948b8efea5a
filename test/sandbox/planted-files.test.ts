// What a sandboxed call leaves where the action reads or writes a file afterwards, as its own user
// (root, or the runner's user that can read the token): a FIFO (opening it waited forever), a link
// to /dev/zero (read 2 GiB), a 2 GB sparse file (read whole), a link in place of a folder or a file
// (the action's write landed outside). One scenario per access (planted-files-probe.ts), each in a
// process of its own, on both privilege paths: as root, and as an ordinary user with passwordless
// sudo, as on GitHub's hosted runners. Each must finish in seconds, stay small, and leave the
// folder outside the call's reach as it was. The test needs root (to make that user); it creates
// `prl-planted-<pid>` with a sudoers rule and a folder below /opt, and removes all three after.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundleProbe, copyWatchdog, makeProbeRunner, type ProbeRunner } from './probe-runner.js';
import { sudoMissing } from './sudo-available.js';

const runnable = process.getuid?.() === 0;
if (!runnable) console.log('planted-files.test.ts: skipped (needs root to create the sandbox user and a sudo user)');
/** Why the "as sudo" half cannot run here, or null. */
const noSudo = runnable ? sudoMissing() : null;

let RUNNER: string;
let dir: string;
let runner: ProbeRunner | undefined;

beforeAll(async () => {
  if (!runnable) return;
  runner = makeProbeRunner('prl-planted', { owners: { root: 'root', sudo: 'runner' }, sudo: !noSudo });
  ({ user: RUNNER, dir } = runner);
  // PLANTED_PROBE: a probe bundled from other sources (the code before a fix) instead of this tree's.
  if (process.env.PLANTED_PROBE) {
    copyFileSync(process.env.PLANTED_PROBE, path.join(dir, 'probe.mjs'));
    chmodSync(path.join(dir, 'probe.mjs'), 0o644);
  } else await bundleProbe(dir, { entryPoints: [path.join(import.meta.dirname, 'planted-files-probe.ts')] });
  copyWatchdog(dir);
});
afterAll(() => runner?.remove());

interface Outcome {
  result: string | null;
  ms: number;
  maxRssMb: number;
  outside: Record<string, string>;
  libGit: string;
  log: string[];
}

/** Waited on, a FIFO blocks forever: the probe is killed after this and the test fails. */
const PROBE_TIMEOUT_S = 40;

function probe(privilege: 'root' | 'sudo', scenario: string): Outcome {
  // `timeout` runs as the probe's user and kills the probe itself (runuser would pass nothing on).
  const node = ['timeout', '-s', 'KILL', String(PROBE_TIMEOUT_S), process.execPath, path.join(dir, 'probe.mjs')];
  const argv = privilege === 'root' ? [...node, scenario] : ['runuser', '-u', RUNNER, '--', ...node, scenario];
  const r = spawnSync(argv[0]!, argv.slice(1), {
    cwd: dir,
    env: { PATH: process.env.PATH, PROBE_TOP: path.join(dir, privilege) },
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    removeLeftUser(r.stderr);
    // As root, `timeout` kills its whole process group, itself included; through runuser it exits 137.
    const killed = r.signal === 'SIGKILL' || r.status === 137;
    const why = killed ? `was killed after ${PROBE_TIMEOUT_S} s` : `exited ${r.status}`;
    throw new Error(`the ${scenario} probe ${why}:\n${r.stderr.slice(-2000)}`);
  }
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Outcome;
}

/** A killed probe cannot close its sandbox: its user, group and folder are removed here. */
function removeLeftUser(stderr: string): void {
  const user = /^sandbox user: (prl-[0-9a-f]{10})$/m.exec(stderr)?.[1];
  if (!user) return;
  spawnSync('pkill', ['-KILL', '-U', user]);
  spawnSync('userdel', [user]);
  spawnSync('groupdel', [user]);
  spawnSync('sh', ['-c', `rm -rf /tmp/${user}-*`]);
}

/** Finished in seconds, without reading a large file into memory, and wrote nothing outside. */
function expectContained(o: Outcome): void {
  expect(o.ms).toBeLessThan(10_000);
  expect(o.maxRssMb).toBeLessThan(256);
  expect(o.outside).toEqual({ victim: 'original\n' });
}

const GITFILE = 'gitdir: ../.git/modules/lib\n';

describe.runIf(runnable).each(['root', 'sudo'] as const)('as %s', (privilege) => {
  const run = (scenario: string) => probe(privilege, scenario);
  beforeEach(({ skip }) => {
    if (privilege === 'sudo' && noSudo) skip(noSudo);
  });

  describe('a nested .git a call left', () => {
    it.each([
      ['git-fifo', 'a FIFO'],
      ['git-devzero', 'a symbolic link'],
      ['git-sparse', 'larger than'],
    ])('%s: removed unread and the gitfile put back', (scenario, what) => {
      const o = run(scenario);
      expectContained(o);
      expect(o.libGit).toBe(GITFILE);
      expect(o.log.join('\n')).toMatch(new RegExp(`put back the nested \\.git entries .*lib/\\.git \\(${what}`));
    });

    it('git-parent-link: the gitfile is not written through a link where its folder was', () => {
      const o = run('git-parent-link');
      expectContained(o);
      expect(o.libGit).toBe('ENOENT');
      expect(o.log.join('\n')).toMatch(/not put back, their folder is gone: .*lib\/\.git \(.*lib is a symbolic link\)/);
    });
  });

  describe("the settings the action writes in a role's state folder", () => {
    it.each([
      ['claude-settings-link', /replaced .*settings\.json: it was a symbolic link/],
      ['gemini-folder-link', /removed .*fixer-home\/gemini\/\.gemini: it was a symbolic link/],
      ['codex-config-fifo', /replaced .*config\.toml: it was a FIFO/],
      ['opencode-folder-link', /removed .*config\/opencode: it was a symbolic link/],
    ])('%s: replaced, never followed', (scenario, logged) => {
      const o = run(scenario);
      expectContained(o);
      expect(o.log.join('\n')).toMatch(logged);
    });
  });

  describe("a Codex session's rollout file", () => {
    it.each([
      ['codex-rollout-fifo', 'a FIFO'],
      ['codex-rollout-devzero', 'a symbolic link'],
      ['codex-rollout-sparse', 'larger than'],
    ])('%s: not read, and the call still answers', (scenario, what) => {
      const o = run(scenario);
      expectContained(o);
      expect(o.result).toBe('answered');
      expect(o.log.join('\n')).toContain(`not read (${what}`);
    });
  });

  it("opencode-document-fifo: an OpenCode reviewer does not start on a checkout's document it cannot read", () => {
    const o = run('opencode-document-fifo');
    expectContained(o);
    expect(o.result).toMatch(/not started: .*opencode\.json \(a FIFO\)/);
  });
});
