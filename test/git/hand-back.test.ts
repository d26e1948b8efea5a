// The checkout handed back as it came (src/git/hand-back.ts), on a real repository: what calls
// created is gone, ignored paths included; an untracked file an earlier step left and a call changed
// is restored; tracked files go back to HEAD; the log counts what went by its first folder.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { statusPorcelain } from '../../src/git/index.js';
import { describeHandBack, handBackCheckout, snapshotCheckout } from '../../src/git/hand-back.js';
import { sandbox } from './helpers.js';

const copies = mkdtempSync(path.join(tmpdir(), 'hand-back-copies-'));
afterEach(() => rmSync(copies, { recursive: true, force: true }));

/** A checkout as an earlier step of the job left it: ignored and untracked files, a cache folder. */
async function checkout() {
  const s = await sandbox();
  const at = (p: string) => path.join(s.workDir, p);
  writeFileSync(at('.gitignore'), 'node_modules/\n.env\ncache/\n');
  await s.git(['add', '.gitignore']);
  await s.git(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'ignore']);
  writeFileSync(at('.env'), 'TOKEN=from-an-earlier-step\n', { mode: 0o600 });
  writeFileSync(at('notes.txt'), 'untracked, not ignored\n');
  mkdirSync(at('cache/sub'), { recursive: true });
  writeFileSync(at('cache/a.txt'), 'cached a\n');
  writeFileSync(at('cache/sub/b.txt'), 'cached b\n');
  symlinkSync('a.txt', at('cache/link'));
  return { s, at };
}

it('removes what calls created, restores what they changed, and counts what went by its first folder', async () => {
  const { s, at } = await checkout();
  const readme = readFileSync(at('README.md'), 'utf8');
  const snap = await snapshotCheckout(s.git, s.workDir, { copiesDir: path.join(copies, 'a'), callsRunAsOwner: true });

  // What verify, hooks and the fixer leave.
  mkdirSync(at('node_modules/.bin'), { recursive: true });
  writeFileSync(at('node_modules/.bin/eslint'), '#!/bin/sh\necho planted\n', { mode: 0o755 });
  writeFileSync(at('node_modules/left.js'), '1\n');
  mkdirSync(at('coverage'));
  writeFileSync(at('coverage/lcov.info'), 'TN:\n');
  mkdirSync(at('locked/deep'), { recursive: true });
  writeFileSync(at('locked/deep/file'), 'x\n');
  chmodSync(at('locked/deep'), 0o555);
  chmodSync(at('locked'), 0o555);
  symlinkSync('/etc', at('to-etc'));
  writeFileSync(at('.env'), 'TOKEN=rewritten-by-a-call\n');
  writeFileSync(at('notes.txt'), 'changed\n');
  writeFileSync(at('cache/new.bin'), 'new\n');
  rmSync(at('cache/a.txt'));
  rmSync(at('cache/link'));
  symlinkSync('/etc/passwd', at('cache/link'));
  rmSync(at('cache/sub'), { recursive: true });
  writeFileSync(at('README.md'), 'rewritten\n');

  const done = await handBackCheckout(s.git, snap);
  for (const p of ['node_modules', 'coverage', 'locked', 'to-etc', 'cache/new.bin'])
    expect(existsSync(at(p)), p).toBe(false);
  expect(readFileSync(at('.env'), 'utf8')).toBe('TOKEN=from-an-earlier-step\n');
  expect(lstatSync(at('.env')).mode & 0o777).toBe(0o600);
  expect(readFileSync(at('notes.txt'), 'utf8')).toBe('untracked, not ignored\n');
  expect(readFileSync(at('cache/a.txt'), 'utf8')).toBe('cached a\n');
  expect(readFileSync(at('cache/sub/b.txt'), 'utf8')).toBe('cached b\n');
  expect(readlinkSync(at('cache/link'))).toBe('a.txt');
  expect(readFileSync(at('README.md'), 'utf8')).toBe(readme);
  expect(existsSync('/etc/passwd')).toBe(true);
  expect((await statusPorcelain(s.git)).sort()).toEqual(['notes.txt']);

  const { info, warnings } = describeHandBack(done);
  expect(warnings).toEqual([]);
  expect(info.join('\n')).toContain(
    'removed what calls created, ignored paths included: coverage (2 paths), locked (3 paths), ' +
      'node_modules (4 paths), to-etc (1 path), cache (1 path)',
  );
  expect(info.join('\n')).toMatch(/restored untracked files a call changed: .*\.env/);
  expect(info.join('\n')).toContain('put back to HEAD: README.md');
});

it('leaves a checkout no call changed as it is, and says nothing', async () => {
  const { s, at } = await checkout();
  const snap = await snapshotCheckout(s.git, s.workDir, { copiesDir: path.join(copies, 'b'), callsRunAsOwner: true });
  const done = await handBackCheckout(s.git, snap);
  expect(describeHandBack(done)).toEqual({ info: [], warnings: [] });
  expect(readFileSync(at('cache/a.txt'), 'utf8')).toBe('cached a\n');
});

it('keeps copies only of what another user could change, and names what it could not restore', async () => {
  const { s, at } = await checkout();
  chmodSync(at('cache/a.txt'), 0o666);
  const snap = await snapshotCheckout(s.git, s.workDir, { copiesDir: path.join(copies, 'c'), callsRunAsOwner: false });
  expect([...snap.copies.keys()]).toEqual(['cache/a.txt']);
  writeFileSync(at('cache/a.txt'), 'changed by the sandbox user\n');
  // Only its owner could change this one: not a call, in a sandbox; here the test does.
  writeFileSync(at('cache/sub/b.txt'), 'changed by its owner\n');
  const done = await handBackCheckout(s.git, snap);
  expect(readFileSync(at('cache/a.txt'), 'utf8')).toBe('cached a\n');
  expect(describeHandBack(done).warnings.join('\n')).toContain('no copy was kept to restore them');
  expect(done.notRestored).toEqual(['cache/sub/b.txt']);
});
