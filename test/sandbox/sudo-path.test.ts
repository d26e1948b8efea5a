// The sandbox reached through sudo, as on GitHub's hosted runners: the action runs as an
// ordinary user with passwordless sudo. The test needs root (to make such a user) and sudo
// installed; CI machines of this project have no sudo, so there it is skipped with a note.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const runnable = process.getuid?.() === 0 && existsSync('/usr/bin/sudo');
if (!runnable) console.log('sudo-path.test.ts: skipped (needs root and /usr/bin/sudo)');

const RUNNER = `prl-test-runner-${process.pid}`;
const SUDOERS = `/etc/sudoers.d/${RUNNER}`;
let dir: string;

beforeAll(async () => {
  if (!runnable) return;
  dir = mkdtempSync(path.join(tmpdir(), 'sudo-path-'));
  chmodSync(dir, 0o755);
  execFileSync('useradd', ['--system', '--user-group', '--shell', '/bin/sh', RUNNER]);
  writeFileSync(SUDOERS, `${RUNNER} ALL=(ALL) NOPASSWD:ALL\n`, { mode: 0o440 });
  await build({
    stdin: { contents: PROBE, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: path.join(dir, 'probe.mjs'),
    logLevel: 'silent',
  });
  chmodSync(path.join(dir, 'probe.mjs'), 0o644);
});
afterAll(() => {
  if (!runnable) return;
  rmSync(SUDOERS, { force: true });
  spawnSync('userdel', [RUNNER]);
  rmSync(dir, { recursive: true, force: true });
});

// Runs as the ordinary user; prints one JSON line of what the sandbox user could do.
const PROBE = `
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSandbox } from './src/sandbox/sandbox.ts';
const TAG = String(7000 + process.pid);
const top = mkdtempSync(path.join(tmpdir(), 'sudo-probe-'));
const repo = path.join(top, 'repo');
mkdirSync(repo);
execFileSync('git', ['init', '-q', repo]);
writeFileSync(path.join(repo, 'a.txt'), 'a\\n');
execFileSync('git', ['-C', repo, 'add', 'a.txt']);
const sb = await createSandbox('required', repo);
const env = { PATH: process.env.PATH, KEEP: 'kept' };
const sh = (s, access = {}, timeoutMs = 10000) =>
  sb.run({ command: '/bin/sh', args: ['-c', s], cwd: repo, env, timeoutMs, killGraceMs: 300 }, access);
const readOnly = await sh('echo $KEEP; cat /proc/' + process.pid + '/environ >/dev/null 2>&1 && echo environ; ' +
  'echo x > a.txt 2>/dev/null && echo wrote; id -u');
const writer = await sh('echo y > a.txt && echo new > n.txt && echo ok; echo e >> .git/config 2>/dev/null && echo config; ' +
  'setsid env -u REVIEW_LOOP_INVOCATION_ID sleep ' + TAG + ' >/dev/null 2>&1 & echo started', { workTree: repo });
// The pid a call sees is its namespace's: the escapee is looked for by its command line.
const alive = spawnSync('pgrep', ['-x', '-f', 'sleep ' + TAG]).status === 0;
const slow = await sh('sleep 30', {}, 1000);
await sb.close();
console.log(JSON.stringify({
  me: process.getuid(), readOnly: readOnly.stdout.trim().split('\\n'), writer: writer.stdout.trim().split('\\n').slice(0, -1),
  alive, owners: ['a.txt', 'n.txt'].map((f) => statSync(path.join(repo, f)).uid), timedOut: slow.timedOut,
  slowMs: slow.durationMs, topMode: (statSync(top).mode & 0o777).toString(8),
  userLeft: readFileSync('/etc/passwd', 'utf8').includes(sb.user + ':'),
}));
`;

it.runIf(runnable)('isolates through sudo -n when the action is an ordinary user with passwordless sudo', () => {
  const r = spawnSync('runuser', ['-u', RUNNER, '--', process.execPath, path.join(dir, 'probe.mjs')], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
  const uid = Number(execFileSync('id', ['-u', RUNNER], { encoding: 'utf8' }));
  expect(out.me).toBe(uid);
  // The sandbox user: another uid, the variables we gave, no access to our environ, no write.
  expect(out.readOnly.slice(0, 1)).toEqual(['kept']);
  expect(Number(out.readOnly.at(-1))).not.toBe(uid);
  expect(out.readOnly).toHaveLength(2);
  // With the work tree lent: writes files, not .git; the escapee dies; files come back to us.
  expect(out.writer).toEqual(['ok']);
  expect(out.alive).toBe(false);
  expect(out.owners).toEqual([uid, uid]);
  expect(out.timedOut).toBe(true);
  expect(out.slowMs).toBeLessThan(10_000);
  expect(out.topMode).toBe('700');
  expect(out.userLeft).toBe(false);
});
