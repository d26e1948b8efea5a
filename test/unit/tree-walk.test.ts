// The one walk of a folder a call could write (files/tree-walk.ts), on a real tree with the real
// find: folders before what they hold, a link listed with its target and never followed, and more
// roots than one find takes at once.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { walkTree } from '../../src/files/tree-walk.js';
import { trustedProgram } from '../../src/process/programs.js';

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

it('lists each folder before what it holds, and a link with its target, not what it points to', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tree-walk-'));
  await mkdir(path.join(dir, 'top/sub'), { recursive: true, mode: 0o750 });
  await writeFile(path.join(dir, 'top/sub/a.txt'), 'abc', { mode: 0o640 });
  await mkdir(path.join(dir, 'outside'));
  await writeFile(path.join(dir, 'outside/secret'), 'x');
  await symlink('../outside', path.join(dir, 'top/link'));
  const found = await walkTree(trustedProgram('find'), [path.join(dir, 'top')]);
  const rel = found.map((e) => [path.relative(dir, e.path), e.type, e.target]);
  expect(rel).toContainEqual(['top/link', 'l', '../outside']);
  expect(rel.map(([p]) => p)).not.toContain('top/link/secret');
  const names = rel.map(([p]) => p);
  expect(names.indexOf('top')).toBeLessThan(names.indexOf('top/sub'));
  expect(names.indexOf('top/sub')).toBeLessThan(names.indexOf('top/sub/a.txt'));
  const file = found.find((e) => e.path.endsWith('a.txt'))!;
  expect([file.type, file.mode & 0o777, file.size, file.target]).toEqual(['f', 0o640, 3, '']);
  expect(Number(file.ctime)).toBeGreaterThan(0);
});

it('walks more roots than one find takes, and leaves out one that is gone', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tree-walk-'));
  const roots = Array.from({ length: 1203 }, (_, i) => path.join(dir, `f${i} with space`));
  await Promise.all(roots.map((r) => writeFile(r, '')));
  const found = await walkTree(trustedProgram('find'), [...roots, path.join(dir, 'gone')]);
  expect(found.map((e) => e.path).sort()).toEqual([...roots].sort());
});
