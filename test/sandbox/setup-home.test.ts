// What `setup` wrote in the runner's HOME view, for later calls (src/sandbox/setup-layer.ts): verify
// sees it whole but for credentials and git's configuration, with its registry configuration
// stripped; the fixer's and confirmer's calls (agent CLIs that hold a model key) see only its caches;
// read-only agents see none of it; no call writes into it; setup run again replaces it. One probe
// (setup-home-probe.ts) per privilege path: as root, and as an ordinary user with passwordless sudo,
// as on GitHub's hosted runners. The test needs root (to make that user); it creates
// `prl-setup-home-<pid>` with a sudoers rule and a folder below /opt, and removes all three after.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundleProbe, copyWatchdog, makeProbeRunner, type ProbeRunner } from './probe-runner.js';
import { sudoMissing } from './sudo-available.js';

const runnable = process.getuid?.() === 0;
if (!runnable) console.log('setup-home.test.ts: skipped (needs root to create the sandbox user and a sudo user)');
/** Why the "as sudo" half cannot run here, or null. */
const noSudo = runnable ? sudoMissing() : null;

let RUNNER: string;
let dir: string;
let runner: ProbeRunner | undefined;

beforeAll(async () => {
  if (!runnable) return;
  // The runner's HOME is made in the folder too.
  runner = makeProbeRunner('prl-setup-home', { owners: { root: 'root', sudo: 'runner' }, sudo: !noSudo });
  ({ user: RUNNER, dir } = runner);
  await bundleProbe(dir, { entryPoints: [path.join(import.meta.dirname, 'setup-home-probe.ts')] });
  copyWatchdog(dir);
}, 60_000);
afterAll(() => runner?.remove());

interface Outcome {
  verify: string;
  fixer: string;
  confirm: string;
  reviewer: string;
  analyzer: string;
  write: string;
  afterWrite: string;
  afterSecondSetup: string;
  layersBefore: string[];
  layerAccess: { mode: string; ownUser: boolean };
  baseAfterClose: boolean;
  layersAfter: string[];
  realHome: string[];
  log: string[];
}

function probe(privilege: 'root' | 'sudo'): Outcome {
  const node = ['timeout', '-s', 'KILL', '90', process.execPath, path.join(dir, 'probe.mjs')];
  const argv = privilege === 'root' ? node : ['runuser', '-u', RUNNER, '--', ...node];
  const r = spawnSync(argv[0]!, argv.slice(1), {
    cwd: dir,
    env: { PATH: process.env.PATH, PROBE_TOP: path.join(dir, privilege) },
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    removeLeftUser(r.stderr);
    throw new Error(`the probe exited ${r.status ?? r.signal}:\n${r.stderr.slice(-3000)}`);
  }
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Outcome;
}

/** A killed probe cannot close its sandbox: its user, group and folder are removed here. */
function removeLeftUser(stderr: string): void {
  const user = /^sandbox user: (prl-[0-9a-f]{10})$/m.exec(stderr)?.[1];
  if (!user) return;
  spawnSync('pkill', ['-KILL', '-U', user]);
  spawnSync('sh', ['-c', `grep -o " /tmp/${user}-[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l`]);
  spawnSync('userdel', [user]);
  spawnSync('groupdel', [user]);
  spawnSync('sh', ['-c', `rm -rf --one-file-system /tmp/${user}-*`]);
}

const SITE_PTH = '.local/lib/python3.11/site-packages/evil.pth';
/** What setup wrote that may run, or configure what runs, before an agent chooses to run anything. */
const STARTS_SOMETHING = ['.bashrc', SITE_PTH, '.local/bin/tool', '.config/claude/settings.json'];

/** What of setup's writes beyond its caches a call's report shows: each file, the program on PATH, a secret. */
function setupFilesSeen(report: string): string[] {
  const files = [...STARTS_SOMETHING, '.npmrc', '.m2/settings.xml', '.netrc'].filter((f) =>
    report.includes(`== ${f}\n`),
  );
  const ran = report.includes('== tool on PATH\nend') ? [] : ['tool on PATH'];
  const secrets = ['SETUP-SECRET', 'setup-gitconfig'].filter((s) => report.includes(s));
  return [...files, ...ran, ...secrets];
}

describe.runIf(runnable).each(['root', 'sudo'] as const)('as %s', (privilege) => {
  let o: Outcome;
  beforeEach(({ skip }) => {
    if (privilege === 'sudo' && noSudo) skip(noSudo);
    o ??= probe(privilege);
  }, 120_000);

  it('verify sees what setup wrote, but its credentials, its git configuration and its registry token', () => {
    expect(o.verify).toContain('== .npm/_cacache/x\nsetup-cache\n');
    expect(o.verify).toContain('== .npm/_cacache/runner-entry\nrunner-cache\n');
    for (const f of STARTS_SOMETHING) expect(o.verify, f).toContain(`== ${f}\n`);
    expect(o.verify).toContain('== tool on PATH\ntool-ran\n');
    expect(o.verify).toContain('== .cache/pip/wheels/w.whl\nwheel\n');
    // The registry stays known; the token line is gone.
    expect(o.verify).toContain('== .npmrc\nregistry=https://npm.example.com/\n');
    // A token in a registry URL's query goes; the URL's other parameters stay.
    expect(o.verify).toContain('@q:registry=https://q.example.com/?scope=q\n');
    // The Maven profile's other properties stay; its passphrase is gone.
    expect(o.verify).toContain('<properties><maven.compiler.source>17</maven.compiler.source></properties>');
    const leaks = [
      'SETUP-SECRET-npmrc',
      'SETUP-SECRET-query',
      'SETUP-SECRET-gpg',
      'SETUP-SECRET-netrc',
      '== .netrc',
      'setup-gitconfig',
    ];
    expect(leaks.filter((l) => o.verify.includes(l))).toEqual([]);
    // The view's own git configuration (the checkout listed as safe), not setup's.
    expect(o.verify).toContain('== .gitconfig\n[safe]');
    const log = o.log.join('\n');
    expect(log).toContain('what setup wrote in HOME stays for later calls, read-only; verify commands and hooks');
    expect(log).toContain(
      'the fixer and the confirmer only .cache/pip; dropped (credentials, git configuration): .gitconfig, .netrc',
    );
    expect(log).toMatch(/stripped of credentials: [^\n]*\.npmrc/);
    expect(log).toMatch(/stripped of credentials: [^\n]*\.m2\/settings\.xml/);
  });

  it.each(['fixer', 'confirm'] as const)('the %s call sees only the caches setup filled', (role) => {
    const seen = o[role];
    expect(seen).toContain('== .npm/_cacache/x\nsetup-cache\n');
    expect(seen).toContain('== .cache/pip/wheels/w.whl\nwheel\n');
    expect(setupFilesSeen(seen)).toEqual([]);
  });

  it.each(['reviewer', 'analyzer'] as const)('a read-only %s call sees nothing setup wrote', (role) => {
    const seen = o[role];
    expect(seen).toContain('== .npm/_cacache/runner-entry\nrunner-cache\n');
    expect(seen).not.toContain('== .npm/_cacache/x');
    expect(seen).not.toContain('== .cache/pip');
    expect(setupFilesSeen(seen)).toEqual([]);
  });

  it("a call's writes over setup's files stay in that call; the runner's HOME is untouched", () => {
    expect(o.write).toContain('wrote');
    expect(o.afterWrite).toContain('== .npm/_cacache/x\nsetup-cache\n');
    expect(o.afterWrite).not.toContain('overwritten');
    expect(o.afterWrite).not.toContain('== .npm/_cacache/new');
    expect(o.afterWrite).toContain('== .bashrc\n');
    expect(o.realHome).toEqual(['.npm', '.npm/_cacache', '.npm/_cacache/runner-entry']);
    // On disk, setup's layers sit where only the action's own user may enter.
    expect(o.layerAccess).toEqual({ mode: '700', ownUser: true });
  });

  it("setup run again replaces its layers: the earlier run's files are gone, from the view and from disk", () => {
    expect(o.layersBefore).toEqual(['setup-home-1']);
    expect(o.afterSecondSetup).toContain('== .npm/_cacache/second\nsecond-setup\n');
    expect(o.afterSecondSetup).not.toContain('== .npm/_cacache/x');
    expect(o.afterSecondSetup).not.toContain('== .bashrc');
    expect(o.afterSecondSetup).not.toContain('== .local/bin/tool');
    expect(o.layersAfter).toEqual(['setup-home-2']);
    // And the run's end removes the last ones, with the sandbox's folder.
    expect(o.baseAfterClose).toBe(false);
  });
});
