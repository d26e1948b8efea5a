// Once the action has pinned the checkout's local git config (before any agent
// runs), every git command it runs sees that config and nothing a fixer or a verify command
// wrote since: a filter (gitattributes(5) "filter": clean/smudge/process commands) planted in
// .git/config must never run inside the action's own `git add` or `git checkout`.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardLocalConfig } from '../../src/git/config-guard.js';
import { commitAll, ensureIdentity } from '../../src/git/index.js';
import { applyChanges, type GitSandbox } from '../fakes/git-sandbox.js';
import { out, plantedGit, sandbox } from './helpers.js';

const FIXED_MATH = 'function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n';

const configFile = (s: GitSandbox) => path.join(s.workDir, '.git', 'config');
const attributesFile = (s: GitSandbox) => path.join(s.workDir, '.git', 'info', 'attributes');

/** What a verify command does: a filter in .git/config that leaves a marker when git runs it. */
function plantFilter(s: GitSandbox, marker: string): void {
  for (const kind of ['clean', 'smudge']) {
    plantedGit(s.workDir, s.env, 'config', `filter.spy.${kind}`, `echo ${kind} >> '${marker}'; cat`);
  }
}

describe('guardLocalConfig', () => {
  it("keeps a filter planted in .git/config after the pin out of the action's git add and checkout", async () => {
    const s = await sandbox();
    await ensureIdentity(s.git);
    const pinned = await readFile(configFile(s), 'utf8');
    await guardLocalConfig(s.git);
    const marker = path.join(s.root, 'filter-ran');
    plantFilter(s, marker);
    await applyChanges(s.workDir, { '.gitattributes': '* filter=spy\n', 'src/math.js': FIXED_MATH, 'README.md': null });

    expect(await commitAll(s.git, 'fix')).toMatch(/^[0-9a-f]{40}$/);
    await s.git(['checkout', 'HEAD~1', '--', 'README.md']);
    expect(existsSync(marker) ? await readFile(marker, 'utf8') : 'never ran').toBe('never ran');
    expect(await readFile(configFile(s), 'utf8')).toBe(pinned);
  });

  it("restores the run-start config after a later guard (the fixer's, gate loop 2), not a new one", async () => {
    const s = await sandbox();
    await ensureIdentity(s.git);
    await guardLocalConfig(s.git); // run start
    const marker = path.join(s.root, 'filter-ran');
    plantFilter(s, marker); // a verify command in gate loop 1
    const afterFixer = await guardLocalConfig(s.git); // callFixer, gate loop 2
    await afterFixer();
    await applyChanges(s.workDir, { '.gitattributes': '* filter=spy\n', 'src/math.js': FIXED_MATH });
    await commitAll(s.git, 'fix');
    expect(existsSync(marker) ? await readFile(marker, 'utf8') : 'never ran').toBe('never ran');
  });

  it('also pins config.worktree, which git reads once extensions.worktreeConfig is on (sparse checkouts)', async () => {
    const s = await sandbox();
    await ensureIdentity(s.git);
    await s.git(['config', 'extensions.worktreeConfig', 'true']);
    await guardLocalConfig(s.git);
    const marker = path.join(s.root, 'filter-ran');
    plantedGit(s.workDir, s.env, 'config', '--worktree', 'filter.spy.clean', `echo clean >> '${marker}'; cat`);
    await applyChanges(s.workDir, { '.gitattributes': '* filter=spy\n', 'src/math.js': FIXED_MATH });
    await commitAll(s.git, 'fix');
    expect(existsSync(marker) ? await readFile(marker, 'utf8') : 'never ran').toBe('never ran');
  });

  it('puts $GIT_DIR/info/attributes back as it was pinned before each command', async () => {
    const s = await sandbox();
    await mkdir(path.dirname(attributesFile(s)), { recursive: true });
    await writeFile(attributesFile(s), 'README.md -diff\n');
    await guardLocalConfig(s.git);
    await writeFile(attributesFile(s), '* filter=lfs diff=spy text eol=crlf\n');
    expect(await out(s.git, 'check-attr', '-a', 'src/math.js')).toBe('');
    expect(await out(s.git, 'check-attr', 'diff', 'README.md')).toBe('README.md: diff: unset');
    expect(await readFile(attributesFile(s), 'utf8')).toBe('README.md -diff\n');
  });

  it('removes an info/attributes file that did not exist when the config was pinned', async () => {
    const s = await sandbox();
    await guardLocalConfig(s.git);
    await mkdir(path.dirname(attributesFile(s)), { recursive: true });
    await writeFile(attributesFile(s), '* filter=spy\n');
    expect(await out(s.git, 'check-attr', 'filter', 'src/math.js')).toBe('src/math.js: filter: unspecified');
    expect(existsSync(attributesFile(s))).toBe(false);
  });

  it('still tells each caller that a change was undone when an earlier git command already undid it', async () => {
    const s = await sandbox();
    const beforePush = await guardLocalConfig(s.git);
    const afterFixer = await guardLocalConfig(s.git);
    plantedGit(s.workDir, s.env, 'config', 'remote.origin.pushurl', '/elsewhere.git');
    await s.git(['status', '--porcelain']);
    expect(await afterFixer()).toBe(true);
    expect(await afterFixer()).toBe(false);
    expect(await beforePush()).toBe(true);
    expect(await beforePush()).toBe(false);
    expect((await s.git(['config', '--get', 'remote.origin.pushurl'], { allowFail: true })).code).toBe(1);
  });

  it('refuses a git function that createGit did not make, which it could not guard', async () => {
    const s = await sandbox();
    const wrapped = (args: string[]) => s.git(args);
    await expect(guardLocalConfig(wrapped)).rejects.toThrow(/createGit/);
  });
});
