import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { readDelta } from '../../src/git/delta.js';
import { out, plantedGit, sandbox } from './helpers.js';

it('reads the change and the commits since an earlier head, newest first, and cuts a long patch', async () => {
  const s = await sandbox();
  const commit = async (file: string, content: string, subject: string) => {
    await writeFile(path.join(s.workDir, file), content);
    plantedGit(s.workDir, s.devEnv, 'add', '-A');
    plantedGit(s.workDir, s.devEnv, 'commit', '-qm', subject);
    return out(s.git, 'rev-parse', 'HEAD');
  };
  const one = await commit('a.txt', 'one\n', 'fix: one');
  const two = await commit('b.txt', `${'x'.repeat(50)}\n`.repeat(20), 'fix: two');
  const d = (await readDelta(s.git, s.headSha, two, 100_000))!;
  expect(d.commits).toEqual([
    { sha: two, subject: 'fix: two' },
    { sha: one, subject: 'fix: one' },
  ]);
  expect(d.patch).toContain('+++ b/a.txt');
  expect(d.patch).toContain('+++ b/b.txt');
  expect(d.truncated).toBe(false);
  const cut = (await readDelta(s.git, s.headSha, two, 300))!;
  expect(cut.truncated).toBe(true);
  expect(cut.patch.length).toBeLessThanOrEqual(300);
  expect(cut.patch.endsWith('\n')).toBe(true);
  // No delta from a head that is not in the history (a force push), nor from the head itself.
  expect(await readDelta(s.git, two, one, 100_000)).toBeNull();
  expect(await readDelta(s.git, two, two, 100_000)).toBeNull();
  expect(await readDelta(s.git, 'f'.repeat(40), two, 100_000)).toBeNull();
});
