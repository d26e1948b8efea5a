// A call whose bubblewrap fails in its own set-up is started again; a command that fails is not. With
// the real sandbox and the real bubblewrap, as root (as this project's CI runs). Under load the set-up
// fails when another call unmounts one of its layers while this call's bubblewrap binds the root; here
// it fails for sure: a path the call is shown does not exist when bubblewrap starts. The first retry's
// log line is the moment the test makes it exist, so the second start finds it: no timing involved.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';
import { emptyHome } from './empty-home.js';

const isRoot = process.getuid?.() === 0;
let top: string;
let repo: string;
let sandbox: Sandbox | undefined;
let home: ReturnType<typeof emptyHome>;
let log: string[];
/** Called with each line the sandbox logs. */
let onLog: (line: string) => void;

beforeAll(() => {
  home = emptyHome();
});
afterAll(() => home.remove());
beforeEach(async () => {
  top = mkdtempSync(path.join(tmpdir(), 'set-up-retry-'));
  repo = path.join(top, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(path.join(repo, 'a.txt'), 'a\n');
  execFileSync('git', ['-C', repo, 'add', 'a.txt']);
  log = [];
  onLog = () => undefined;
});
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  rmSync(top, { recursive: true, force: true });
});

const retries = () => log.filter((l) => l.includes('failed in its own set-up'));

async function sh(script: string, shown: string[] = []) {
  sandbox ??= await createSandbox('required', repo, {
    env: home.env,
    log: (line) => {
      log.push(line);
      onLog(line);
    },
  });
  return sandbox.run(
    { command: '/bin/sh', args: ['-c', script], cwd: repo, env: { PATH: process.env.PATH! }, timeoutMs: 20_000 },
    { shown },
  );
}

describe.skipIf(!isRoot)('a sandboxed call whose bubblewrap fails in its own set-up', () => {
  it('is started again, and its command then runs once', async () => {
    const missing = path.join(top, 'appears-later');
    onLog = (line) => line.includes('failed in its own set-up') && mkdirSync(missing, { mode: 0o755 });
    const r = await sh('echo ran', [missing]);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'ran\n' });
    expect(r.stderr).not.toContain('bwrap');
    expect(retries()).toHaveLength(1);
    expect(retries()[0]).toMatch(
      /call 1 failed .*Can't find source path .*appears-later.*starting it again \(1 of 2\)/,
    );
  });

  it('fails as before once two more starts failed too', async () => {
    const r = await sh('echo ran', [path.join(top, 'never-there')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("bwrap: Can't find source path");
    expect(retries()).toHaveLength(2);
  });

  it('is not what a command that fails is, even when it prints what bubblewrap prints', async () => {
    const r = await sh(`echo ran; echo "bwrap: Can't bind mount /oldroot/tmp/x on /newroot/tmp/x" >&2; exit 1`);
    expect(r.exitCode).toBe(1);
    // Run once: one "ran".
    expect(r.stdout).toBe('ran\n');
    expect(retries()).toEqual([]);
  });
});
