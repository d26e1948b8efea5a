// The sandbox reached through sudo, as on GitHub's hosted runners: the action runs as an
// ordinary user with passwordless sudo. The test needs root (to make such a user) and sudo;
// `npm test`'s setup installs sudo where it is missing, `npm run test:unit` installs nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleProbe, copyWatchdog, makeProbeRunner, type ProbeRunner } from './probe-runner.js';
import { sudoMissing } from './sudo-available.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Why the test cannot run here, or null. */
function cannotRun(): string | null {
  // As an ordinary user it cannot make the user it needs.
  if (process.getuid?.() !== 0) return 'needs root to create an ordinary user with sudo';
  // As root `npm test` installs sudo first, so there it always runs.
  return sudoMissing();
}
const why = cannotRun();
const runnable = why === null;
if (why) console.log(`sudo-path.test.ts: skipped (${why})`);

let RUNNER: string;
let dir: string;
let runner: ProbeRunner | undefined;

beforeAll(async () => {
  if (!runnable) return;
  // A file below /tmp is out of a call's sight whether the sandbox hides it or not: hence /opt.
  runner = makeProbeRunner('prl-sudo-path', { owners: { work: 'runner' }, sudo: true });
  ({ user: RUNNER, dir } = runner);
  await bundleProbe(dir, { stdin: { contents: PROBE, resolveDir: ROOT, loader: 'ts' } });
  copyWatchdog(dir);
});
afterAll(() => runner?.remove());

// Runs as the ordinary user; prints one JSON line of what the sandbox user could do.
const PROBE = `
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSandbox } from './src/sandbox/sandbox.ts';
import { runVerify } from './src/commands/verify.ts';
const TAG = String(7000 + process.pid);
const top = mkdtempSync(path.join(process.env.PROBE_TOP, 'sudo-probe-'));
const repo = path.join(top, 'repo');
mkdirSync(repo);
execFileSync('git', ['init', '-q', repo]);
writeFileSync(path.join(repo, 'a.txt'), 'a\\n');
execFileSync('git', ['-C', repo, 'add', 'a.txt']);
// What a hosted runner has around the checkout: RUNNER_TEMP with a second checkout's
// credentials (0644), and a private credentials file an earlier step left in the checkout.
const runnerTemp = path.join(top, '_temp');
mkdirSync(runnerTemp, { mode: 0o755 });
writeFileSync(path.join(runnerTemp, 'git-credentials-1.config'), 'temp-token\\n', { mode: 0o644 });
writeFileSync(path.join(repo, 'gha-creds-1.json'), 'oidc-token\\n', { mode: 0o600 });
const sb = await createSandbox('required', repo, { env: { RUNNER_TEMP: runnerTemp, HOME: process.env.HOME }, namespaces: true });
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
const leaks = await sh('cat ' + runnerTemp + '/* gha-creds-1.json 2>/dev/null; echo planted > /tmp/p; ' +
  'echo planted > ~/p; echo end', { workTree: repo });
const next = await sh('test -e /tmp/p && echo tmp-shared; test -e ~/p && echo home-shared; echo end');
// The device and kernel idioms of a verify command: the call's own /dev and /proc, never the host's.
const devices = await runVerify(['echo x 2>/dev/null >/dev/null </dev/null && head -c 16 /dev/urandom | wc -c && ' +
  'echo e >/dev/stderr && ls /proc | grep -cE "^[0-9]+$"'], { cwd: repo, env, timeoutMs: 10000, sandbox: sb,
  redact: (t) => t, log: () => {} });
await sb.close();
console.log(JSON.stringify({
  me: process.getuid(), readOnly: readOnly.stdout.trim().split('\\n'), writer: writer.stdout.trim().split('\\n').slice(0, -1),
  alive, owners: ['a.txt', 'n.txt'].map((f) => statSync(path.join(repo, f)).uid), timedOut: slow.timedOut,
  slowMs: slow.durationMs, topMode: (statSync(top).mode & 0o777).toString(8),
  userLeft: readFileSync('/etc/passwd', 'utf8').includes(sb.user + ':'),
  leaks: leaks.stdout.trim(), next: next.stdout.trim(), limits: sb.limits,
  devices: devices.results[0].outputTail.split('\\n'),
}));
`;

it.runIf(runnable)('isolates through sudo -n when the action is an ordinary user with passwordless sudo', () => {
  const r = spawnSync('runuser', ['-u', RUNNER, '--', process.execPath, path.join(dir, 'probe.mjs')], {
    cwd: dir,
    env: { ...process.env, PROBE_TOP: path.join(dir, 'work') },
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
  // Each call in namespaces of its own, as root would give them: nothing of RUNNER_TEMP or of
  // an earlier step's private file, nothing shared between calls through /tmp or HOME.
  expect(out.limits).toEqual([]);
  expect(out.leaks).toBe('end');
  expect(out.next).toBe('end');
  const [random, stderr, processes] = out.devices;
  expect([random, stderr]).toEqual(['16', 'e']);
  expect(Number(processes)).toBeLessThan(10);
});
