// The folder of a command's pipe (commands/shell.ts) through the real sandbox (these tests run as
// root, as this project's CI does). The workflow's TMPDIR is a folder the call may write (a shared
// 1777 one, named by the call's environment, so shown to it as it is): a command killed at its time
// limit must leave nothing there, with namespaces (the call's own /tmp holds the folder) and
// without (the action makes the folder there, lends it to the sandbox user and removes it).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runShell } from '../../src/commands/shell.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';
import { emptyHome } from './empty-home.js';

const isRoot = process.getuid?.() === 0;
/** HOME for the sandboxes: these tests are not about its view. */
const home = emptyHome();
afterAll(() => home.remove());

describe.runIf(isRoot).each([
  ['with namespaces', true],
  ['without namespaces', false],
])('a command in the sandbox %s', (_, namespaces) => {
  let top: string;
  let repo: string;
  let shared: string;
  let sandbox: Sandbox;
  beforeAll(async () => {
    top = mkdtempSync(path.join(tmpdir(), 'shell-relay-'));
    repo = path.join(top, 'repo');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', repo]);
    writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    execFileSync('git', ['-C', repo, 'add', 'a.txt']);
    // Outside /tmp, which a call with namespaces has its own of.
    shared = mkdtempSync('/opt/prl-shell-relay-test-');
    chmodSync(shared, 0o1777);
    sandbox = await createSandbox('auto', repo, { env: home.env, namespaces });
  });
  afterAll(async () => {
    await sandbox?.close();
    rmSync(top, { recursive: true, force: true });
    rmSync(shared, { recursive: true, force: true });
  });

  const shell = (timeoutMs: number) => ({
    cwd: repo,
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', TMPDIR: shared },
    timeoutMs,
    sandbox,
    trustedCommand: true,
  });

  it('runs as the sandbox user, its output through a pipe (/dev/stderr works)', async () => {
    expect(sandbox.privateTmp).toBe(namespaces);
    const r = await runShell('id -u; echo to-stderr >/dev/stderr', shell(20_000));
    expect(r.exitCode).toBe(0);
    expect(Number(r.stdout.split('\n')[0])).toBeGreaterThanOrEqual(1_000_000_000);
    expect(r.stdout.split('\n')[1]).toBe('to-stderr');
    expect(readdirSync(shared)).toEqual([]);
  });

  it('leaves nothing in the shared TMPDIR when it is killed at its time limit', async () => {
    const r = await runShell('sleep 30', shell(2_000));
    expect(r.timedOut).toBe(true);
    expect(readdirSync(shared)).toEqual([]);
  });
});
