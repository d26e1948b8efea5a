// What a verify command or hook leaves in the checkout is put back, on a real repository: a
// tracked file to HEAD's content, a new file removed, ignored files and earlier changes left alone.
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { statusPorcelain } from '../../src/git/index.js';
import { changedPaths, putBackAfter, putBackSince } from '../../src/git/put-back.js';
import { sandbox } from './helpers.js';

it('restores tracked files, removes new ones, and keeps ignored files and what was changed before', async () => {
  const s = await sandbox();
  const at = (p: string) => path.join(s.workDir, p);
  writeFileSync(at('earlier.txt'), 'the fixer left this uncommitted\n');
  const before = await changedPaths(s.git);
  const readme = readFileSync(at('README.md'), 'utf8');
  // What an `npm install` and a test run with coverage leave.
  writeFileSync(at('package-lock.json'), '{}\n');
  writeFileSync(at('README.md'), 'rewritten\n');
  rmSync(at('src/math.js'));
  mkdirSync(at('coverage/lcov-report'), { recursive: true });
  writeFileSync(at('coverage/lcov-report/index.html'), '<html>\n');
  mkdirSync(at('node_modules/dep'), { recursive: true });
  writeFileSync(at('node_modules/dep/index.js'), 'module.exports = 1;\n');
  writeFileSync(at(':(exclude)x'), 'a name like pathspec magic\n');

  const put = await putBackSince(s.git, before);
  expect(put.sort()).toEqual(
    [':(exclude)x', 'README.md', 'coverage/lcov-report/index.html', 'package-lock.json', 'src/math.js'].sort(),
  );
  expect(readFileSync(at('README.md'), 'utf8')).toBe(readme);
  expect(existsSync(at('src/math.js'))).toBe(true);
  expect(existsSync(at('package-lock.json'))).toBe(false);
  expect(existsSync(at('node_modules/dep/index.js'))).toBe(true);
  expect(await statusPorcelain(s.git)).toEqual(['earlier.txt']);
});

it('looks again when putting back a .gitignore shows what it hid', async () => {
  const s = await sandbox();
  const at = (p: string) => path.join(s.workDir, p);
  const before = await changedPaths(s.git);
  // The command ignores its own output, in the tracked .gitignore and in a new folder's own one.
  writeFileSync(at('.gitignore'), 'node_modules/\nbuild/\n');
  mkdirSync(at('build'));
  writeFileSync(at('build/out.js'), 'built\n');
  mkdirSync(at('reports'));
  writeFileSync(at('reports/.gitignore'), '*\n!.gitignore\n');
  writeFileSync(at('reports/junit.xml'), '<testsuites/>\n');
  const put = await putBackSince(s.git, before);
  expect(put.sort()).toEqual(['.gitignore', 'build/out.js', 'reports/.gitignore', 'reports/junit.xml'].sort());
  expect(await statusPorcelain(s.git)).toEqual([]);
});

it('removes a link put where a tracked folder was, then restores the folder without following the link', async () => {
  const s = await sandbox();
  const at = (p: string) => path.join(s.workDir, p);
  const outside = path.join(s.workDir, '..', `outside-${path.basename(s.workDir)}`);
  mkdirSync(outside);
  try {
    const before = await changedPaths(s.git);
    rmSync(at('src'), { recursive: true });
    symlinkSync(outside, at('src'));
    await putBackSince(s.git, before);
    expect(existsSync(path.join(outside, 'math.js'))).toBe(false);
    expect(readFileSync(at('src/math.js'), 'utf8')).toContain('function add');
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

it('logs what it put back, by step, and puts back after a failing command too', async () => {
  const s = await sandbox();
  const logs: string[] = [];
  const failing = putBackAfter(
    s.git,
    'the after-fix hook',
    (l) => logs.push(l),
    async () => {
      writeFileSync(path.join(s.workDir, 'hook-report.txt'), 'done\n');
      throw new Error('the hook failed');
    },
  );
  await expect(failing).rejects.toThrow('the hook failed');
  expect(logs).toEqual(['the after-fix hook changed the checkout; put back, never committed: hook-report.txt']);
  expect(await statusPorcelain(s.git)).toEqual([]);
});
