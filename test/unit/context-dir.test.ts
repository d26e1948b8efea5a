// The context folder: fresh, private, with the standard files.
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeContextDir } from '../../src/roles/context-dir.js';
import { withTempDir } from '../agents-core/helpers.js';

const DATA = {
  pr: { number: 7, title: 'Add x' },
  files: [{ filename: 'src/x.ts', status: 'added' }],
  diff: 'diff --git a/src/x.ts b/src/x.ts\n+export const x = 1;\n',
  threads: [],
  reviewState: { hasChangesRequested: false, changesRequestedBy: [] },
};

describe('writeContextDir', () => {
  it('writes the standard files into a private folder', async () => {
    await withTempDir(async (root) => {
      const dir = await writeContextDir(path.join(root, 'ctx'), 'round-1-reviewer-1', DATA);
      expect(dir).toBe(path.join(root, 'ctx', 'round-1-reviewer-1'));
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      expect((await readdir(dir)).sort()).toEqual([
        'diff.patch',
        'files.json',
        'pr.json',
        'review-state.json',
        'threads.json',
      ]);
      expect(JSON.parse(await readFile(path.join(dir, 'pr.json'), 'utf8'))).toEqual(DATA.pr);
      expect(await readFile(path.join(dir, 'diff.patch'), 'utf8')).toBe(DATA.diff);
      expect(JSON.parse(await readFile(path.join(dir, 'review-state.json'), 'utf8'))).toEqual(DATA.reviewState);
    });
  });

  it('writes no threads.json when given no threads (the fixer, gate and confirmer get none)', async () => {
    await withTempDir(async (root) => {
      const { threads: _none, ...noThreads } = DATA;
      const dir = await writeContextDir(root, 'fixer-1', { ...noThreads, fixPayload: { issuesToFix: [] } });
      const want = ['diff.patch', 'files.json', 'fix-payload.json', 'pr.json', 'review-state.json'];
      expect((await readdir(dir)).sort()).toEqual(want);
    });
  });

  it('recreates the folder so stale files from an earlier use disappear', async () => {
    await withTempDir(async (root) => {
      const stale = path.join(root, 'fixer');
      await mkdir(stale);
      await writeFile(path.join(stale, 'fix-payload.json'), '{"old":true}');
      const payload = { issuesToFix: [], optionalIssues: [] };
      await writeContextDir(root, 'fixer', {
        ...DATA,
        fixPayload: payload,
        extra: { 'notes.md': '# hi\n', 'more.json': { a: 1 } },
      });
      expect(JSON.parse(await readFile(path.join(stale, 'fix-payload.json'), 'utf8'))).toEqual(payload);
      expect(await readFile(path.join(stale, 'notes.md'), 'utf8')).toBe('# hi\n');
      expect(JSON.parse(await readFile(path.join(stale, 'more.json'), 'utf8'))).toEqual({ a: 1 });
      await writeContextDir(root, 'fixer', DATA);
      expect(await readdir(stale)).not.toContain('fix-payload.json');
    });
  });

  it('refuses names that leave the root or replace standard files', async () => {
    await withTempDir(async (root) => {
      await expect(writeContextDir(root, '../escape', DATA)).rejects.toThrow(/plain file name/);
      await expect(writeContextDir(root, '..', DATA)).rejects.toThrow(/plain file name/);
      await expect(writeContextDir(root, 'ok', { ...DATA, extra: { 'a/b': 'x' } })).rejects.toThrow(/plain file name/);
      await expect(writeContextDir(root, 'ok', { ...DATA, extra: { 'pr.json': 'x' } })).rejects.toThrow(
        /standard file/,
      );
      expect(await readdir(root)).toEqual([]);
    });
  });
});
