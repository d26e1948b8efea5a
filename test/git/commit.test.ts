import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  commitAll,
  commitMessage,
  ensureIdentity,
  hasTrailer,
  headSha,
  parseTrailers,
  squashSince,
  statusPorcelain,
} from '../../src/git/index.js';
import { applyChanges } from '../fakes/git-sandbox.js';
import { out, sandbox } from './helpers.js';

const MESSAGE = 'Fix add: return the sum\n\nFixed CAT-1234abcd.\n\nReview-Loop-Round: 1\n';

describe('commitAll', () => {
  it('commits everything, including untracked and deleted files, or returns null', async () => {
    const s = await sandbox();
    await ensureIdentity(s.git);
    expect(await commitAll(s.git, 'nothing')).toBeNull();
    await applyChanges(s.workDir, { 'new.txt': 'n\n', 'README.md': null });
    const sha = await commitAll(s.git, 'leftovers');
    expect(sha).toBe(await headSha(s.git));
    expect(await out(s.git, 'show', '--name-status', '--format=', sha!)).toBe('D\tREADME.md\nA\tnew.txt');
    expect(await statusPorcelain(s.git)).toEqual([]);
  });
});

describe('squashSince', () => {
  it('folds two agent commits and uncommitted leftovers into one commit on the base', async () => {
    const s = await sandbox();
    await ensureIdentity(s.git);
    await applyChanges(s.workDir, {
      'src/math.js': 'function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n',
    });
    await s.git(['commit', '-qam', 'agent: fix add']);
    await applyChanges(s.workDir, { 'test/add.test.js': 'regression\n' });
    await s.git(['add', '-A']);
    await s.git(['commit', '-qm', 'agent: add test']);
    await applyChanges(s.workDir, { 'NOTES.md': 'left over\n', 'README.md': null });

    const sha = await squashSince(s.git, s.headSha, MESSAGE);
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await out(s.git, 'rev-parse', `${sha}^`)).toBe(s.headSha);
    expect(await out(s.git, 'rev-list', '--count', `${s.headSha}..HEAD`)).toBe('1');
    expect(await out(s.git, 'diff', '--name-only', s.headSha, sha!)).toBe(
      'NOTES.md\nREADME.md\nsrc/math.js\ntest/add.test.js',
    );
    expect(await commitMessage(s.git, 'HEAD')).toBe(MESSAGE.trimEnd());
    expect(await statusPorcelain(s.git)).toEqual([]);
  });

  it('returns null and leaves HEAD at the base when the net change is nothing', async () => {
    const s = await sandbox();
    await ensureIdentity(s.git);
    const file = path.join(s.workDir, 'README.md');
    await writeFile(file, 'changed\n');
    await s.git(['commit', '-qam', 'agent: change']);
    await s.git(['checkout', s.headSha, '--', 'README.md']);
    await s.git(['commit', '-qam', 'agent: revert']);
    expect(await squashSince(s.git, s.headSha, MESSAGE)).toBeNull();
    expect(await headSha(s.git)).toBe(s.headSha);
  });

  it('refuses a base that is not an ancestor of HEAD', async () => {
    const s = await sandbox();
    const other = await s.pushFromAnotherClone({ 'x.txt': 'x\n' }, { branch: s.baseRef });
    await s.git(['fetch', '-q', 'origin']);
    await expect(squashSince(s.git, other, MESSAGE)).rejects.toThrow(/not an ancestor/);
    await expect(squashSince(s.git, 'no-such-ref', MESSAGE)).rejects.toThrow(/not a commit/);
  });
});

describe('trailers', () => {
  it('finds a real trailer, case-insensitively', async () => {
    const s = await sandbox();
    expect(await hasTrailer(s.git, MESSAGE, 'Review-Loop-Round')).toBe(true);
    expect(await hasTrailer(s.git, MESSAGE, 'review-loop-round')).toBe(true);
    expect(await parseTrailers(s.git, MESSAGE)).toEqual([{ key: 'Review-Loop-Round', value: '1' }]);
  });

  it('ignores the key in the body or in a paragraph that is not the trailer block', async () => {
    const s = await sandbox();
    expect(
      await hasTrailer(s.git, 'Subject\n\nReview-Loop-Round: 1\n\nmore prose after it\n', 'Review-Loop-Round'),
    ).toBe(false);
    expect(await hasTrailer(s.git, 'Review-Loop-Round: 1', 'Review-Loop-Round')).toBe(false);
    expect(
      await hasTrailer(s.git, 'Subject\n\nthe Review-Loop-Round: 1 trailer is mentioned here\n', 'Review-Loop-Round'),
    ).toBe(false);
    expect(await hasTrailer(s.git, 'Subject\n\nSigned-off-by: A <a@b>\n', 'Review-Loop-Round')).toBe(false);
  });

  it('reads a message with a long run of blank lines inside at once', async () => {
    // A PR's author writes this message. A plain /\n+$/ took 14 s on it (quadratic in the run);
    // no timeout can catch that (the match blocks the event loop): the test checks the trimmed text.
    const s = await sandbox();
    await ensureIdentity(s.git);
    const message = `Subject\n${'\n'.repeat(200_000)}body\n\n`;
    const file = path.join(s.workDir, '.git', 'LONG_MSG');
    await writeFile(file, message);
    await s.git(['commit', '-q', '--allow-empty', '--cleanup=verbatim', '-F', file]);
    expect(await commitMessage(s.git, 'HEAD')).toBe(message.slice(0, -2));
  });

  it('reads the message of a commit on origin', async () => {
    const s = await sandbox();
    const sha = await s.pushFromAnotherClone({ 'y.txt': 'y\n' }, { message: `Fix\n\nReview-Loop-Round: 2` });
    await s.git(['fetch', '-q', 'origin']);
    expect(await hasTrailer(s.git, await commitMessage(s.git, sha), 'Review-Loop-Round')).toBe(true);
    expect(await hasTrailer(s.git, await commitMessage(s.git, s.headSha), 'Review-Loop-Round')).toBe(false);
    await expect(commitMessage(s.git, '--all')).rejects.toThrow(/refusing/);
  });
});
