// What an earlier step left in a tracked folder (a 0600 `src/.env`, ignored) stays where it is and
// out of every fix commit: the folders holding it, and those above it, stay their owner's with the
// sticky bit during a call, so a sandboxed call (the fixer, the PR's tests as a verify command) can
// neither read it nor move it to a name no one excludes, which the action's own user, who stages the
// commit and can read the file, would then commit. Found by a red-team review; fails before the fix.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';
import { emptyHome } from './empty-home.js';
import { createGit } from '../../src/git/runner.js';
import { untrackedEntries } from '../../src/git/state.js';
import { commitAll } from '../../src/git/commit.js';

const isRoot = process.getuid?.() === 0;
let top: string;
let sandbox: Sandbox | undefined;
/** HOME for the sandboxes: these tests are not about its view. */
const home = emptyHome();
afterAll(() => home.remove());
afterEach(async () => {
  await sandbox?.close();
  rmSync(top, { recursive: true, force: true });
});

it.runIf(isRoot)(
  "a sandboxed call moves an earlier step's 0600 file in a tracked folder into the fix commit",
  async () => {
    top = mkdtempSync(path.join(tmpdir(), 'rename-test-'));
    const repo = path.join(top, 'repo');
    mkdirSync(path.join(repo, 'src'), { recursive: true });
    const g = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
    execFileSync('git', ['init', '-q', repo]);
    writeFileSync(path.join(repo, 'src', 'app.js'), 'module.exports = 1;\n');
    writeFileSync(path.join(repo, '.gitignore'), '.env\n');
    g('config', 'user.name', 't');
    g('config', 'user.email', 't@example.test');
    g('add', '-A');
    g('commit', '-qm', 'init');
    // An earlier step of the job: `echo "$SECRET" > src/.env` with a private mode.
    writeFileSync(path.join(repo, 'src', '.env'), 'DEPLOY_KEY=sk-live-0123456789abcdef\n', { mode: 0o600 });

    const git = createGit(repo);
    const exclude = await untrackedEntries(git); // what prepareForAgents keeps out: ['src/.env']
    expect(exclude).toEqual(['src/.env']);
    sandbox = await createSandbox('auto', repo, { env: home.env });
    expect(sandbox.user).not.toBeNull();

    // The fixer (or the PR's test code in a verify command): it cannot read the file, but can move it.
    const r = await sandbox.run(
      {
        command: '/bin/sh',
        args: ['-c', 'cat src/.env 2>/dev/null || echo cannot-read; mv src/.env src/env.txt && echo moved'],
        cwd: repo,
        env: { PATH: process.env.PATH! },
        timeoutMs: 10_000,
      },
      { workTree: repo },
    );
    expect(r.stdout).toContain('cannot-read');

    await commitAll(git, 'fix', { exclude });
    const committed = g('ls-tree', '-r', '--name-only', 'HEAD');
    const leaked = committed.includes('src/env.txt') ? g('show', 'HEAD:src/env.txt') : '';
    expect({ moved: r.stdout.includes('moved'), leaked }).toEqual({ moved: false, leaked: '' });
  },
);

it.runIf(isRoot)(
  "nor moves the folders above an earlier step's file, nor deletes it; tracked files there stay writable",
  async () => {
    top = mkdtempSync(path.join(tmpdir(), 'rename-test-'));
    const repo = path.join(top, 'repo');
    mkdirSync(path.join(repo, 'a', 'b'), { recursive: true });
    const g = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
    execFileSync('git', ['init', '-q', repo]);
    writeFileSync(path.join(repo, 'a', 'b', 'app.js'), 'module.exports = 1;\n');
    writeFileSync(path.join(repo, '.gitignore'), '.env\n');
    g('add', '-A');
    writeFileSync(path.join(repo, 'a', 'b', '.env'), 'DEPLOY_KEY=sk-live-0123456789abcdef\n', { mode: 0o600 });
    sandbox = await createSandbox('auto', repo, { env: home.env });
    const r = await sandbox.run(
      {
        command: '/bin/sh',
        args: [
          '-c',
          'mv a a2 2>/dev/null && echo moved-a; mv a/b a/c 2>/dev/null && echo moved-b; ' +
            'rm -f a/b/.env 2>/dev/null; test -e a/b/.env && echo still-there; ' +
            'echo "module.exports = 2;" > a/b/app.js && echo wrote; echo new > a/b/new.js && echo created',
        ],
        cwd: repo,
        env: { PATH: process.env.PATH! },
        timeoutMs: 10_000,
      },
      { workTree: repo },
    );
    expect(r.stdout.trim().split('\n')).toEqual(['still-there', 'wrote', 'created']);
  },
);
