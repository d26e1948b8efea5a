// Rules per directory (src/review/dir-rules.ts) against a real repository: the rules files a PR's
// changed files get, how many git processes finding them takes (the folders are the PR's to
// choose: 600 files 32 folders deep took one process per folder, and the run was still looking
// after 45 s), what a later round asks again, and the cap on the folders looked at.
import { describe, expect, it } from 'vitest';
import type { Git } from '../../src/git/runner.js';
import { candidateFolders, directoryRulesLookup } from '../../src/review/dir-rules.js';
import { sandbox } from './helpers.js';

/** `git`, with every command it ran: its arguments and how many lines it was given on stdin. */
function counted(git: Git): { git: Git; calls: Array<{ args: string[]; lines: number }> } {
  const calls: Array<{ args: string[]; lines: number }> = [];
  const wrapped: Git = (args, opts) => {
    calls.push({ args, lines: (opts?.input ?? '').split('\n').length - 1 });
    return git(args, opts);
  };
  return { git: wrapped, calls };
}

const chain = (top: string, depth: number) =>
  [top, ...Array.from({ length: depth - 1 }, (_v, i) => `d${i + 1}`)].join('/');

/** 600 changed files, each 32 folders deep: 20 chains of 32 folders, 30 files at the bottom of each. */
const FILES = Array.from({ length: 600 }, (_v, i) => `${chain(`a${i % 20}`, 32)}/f${i}.ts`);

const BASE = {
  'REVIEW.md': 'ROOT-RULE\n',
  'a3/REVIEW.md': 'A3-RULE\n',
  [`${chain('a3', 32)}/REVIEW.md`]: 'A3-DEEPEST-RULE\n',
  [`${chain('a5', 11)}/REVIEW.md`]: 'A5-MIDDLE-RULE\n',
  'docs/REVIEW.md': 'DOCS-RULE: no changed file is below docs/\n',
  'a7/REVIEW.md': '  \n',
  'a8/REVIEW.md/not-a-rules-file.md': 'a folder named like the rules file\n',
};

describe('directoryRulesLookup', () => {
  it('finds the rules of 600 files 32 folders deep, nearest first, with one lookup process', async () => {
    const s = await sandbox({ baseFiles: BASE, prChanges: { 'x.txt': 'x\n' } });
    const { git, calls } = counted(s.git);
    const logs: string[] = [];
    const lookup = directoryRulesLookup({ git, fileName: 'REVIEW.md', log: (l) => logs.push(l) });

    const rules = await lookup(s.baseSha, FILES);

    const below = (dir: string) => FILES.filter((f) => f.startsWith(`${dir}/`));
    expect(rules).toEqual([
      { path: `${chain('a3', 32)}/REVIEW.md`, text: 'A3-DEEPEST-RULE', appliesTo: below(chain('a3', 32)) },
      { path: `${chain('a5', 11)}/REVIEW.md`, text: 'A5-MIDDLE-RULE', appliesTo: below(chain('a5', 11)) },
      { path: 'a3/REVIEW.md', text: 'A3-RULE', appliesTo: below('a3') },
      { path: 'REVIEW.md', text: 'ROOT-RULE', appliesTo: FILES },
    ]);
    expect(rules[0]!.appliesTo).toHaveLength(30);
    // One lookup over the 641 folders (the root and 20 chains of 32), then each rules file read once.
    expect(calls[0]).toEqual({
      args: ['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'],
      lines: 641,
    });
    expect(calls.slice(1).map((c) => c.args.slice(0, 2))).toEqual(Array(5).fill(['cat-file', 'blob']));
    expect(logs).toEqual([]);
  });

  it('asks a later round only about the folders new to the base commit, and reads no rules file twice', async () => {
    const s = await sandbox({ baseFiles: BASE, prChanges: { 'x.txt': 'x\n' } });
    const { git, calls } = counted(s.git);
    const lookup = directoryRulesLookup({ git, fileName: 'REVIEW.md', log: () => undefined });
    const first = await lookup(s.baseSha, FILES);
    const before = calls.length;

    // The fixer added a file in a new folder: the one folder not asked about yet is asked.
    const second = await lookup(s.baseSha, [...FILES, 'a3/new/g.ts']);
    expect(calls.slice(before)).toEqual([{ args: expect.arrayContaining(['cat-file']), lines: 1 }]);
    expect(second.map((r) => r.path)).toEqual(first.map((r) => r.path));
    expect(second.find((r) => r.path === 'a3/REVIEW.md')!.appliesTo).toContain('a3/new/g.ts');

    // Nothing new: no process at all.
    await lookup(s.baseSha, FILES);
    expect(calls.length).toBe(before + 1);
  });

  it('looks at the shallowest folders only past the cap, and says how many it left out', async () => {
    const s = await sandbox({ baseFiles: BASE, prChanges: { 'x.txt': 'x\n' } });
    const { git, calls } = counted(s.git);
    const logs: string[] = [];
    const lookup = directoryRulesLookup({ git, fileName: 'REVIEW.md', log: (l) => logs.push(l), maxFolders: 50 });

    const rules = await lookup(s.baseSha, FILES);

    expect(calls[0]!.lines).toBe(50);
    // The root, the 20 top folders and the 20 below them fit (41), then 9 of the next 20: no deeper rules are found.
    expect(rules.map((r) => r.path)).toEqual(['a3/REVIEW.md', 'REVIEW.md']);
    expect(logs).toEqual([
      'review: the changed files are in 641 folders; REVIEW.md was looked for in the 50 shallowest only, not in the other 591',
    ]);
  });

  it('keeps each answer with its folder when a folder name holds a line break', async () => {
    const s = await sandbox({ baseFiles: { ...BASE, 'b/REVIEW.md': 'B-RULE\n' }, prChanges: { 'x.txt': 'x\n' } });
    const lookup = directoryRulesLookup({ git: s.git, fileName: 'REVIEW.md', log: () => undefined });
    // Sorted, "a\nb" comes before "a3": were it asked as two lines, a3's answer would go to the next folder.
    const rules = await lookup(s.baseSha, ['a\nb/REVIEW.md/f.ts', 'a3/f.ts', 'b/f.ts']);
    expect(rules.map((r) => [r.path, r.text])).toEqual([
      ['a3/REVIEW.md', 'A3-RULE'],
      ['b/REVIEW.md', 'B-RULE'],
      ['REVIEW.md', 'ROOT-RULE'],
    ]);
  });

  it('reads nothing when rules per directory are off', async () => {
    const s = await sandbox({ baseFiles: BASE, prChanges: { 'x.txt': 'x\n' } });
    const { git, calls } = counted(s.git);
    expect(await directoryRulesLookup({ git, fileName: '', log: () => undefined })(s.baseSha, FILES)).toEqual([]);
    expect(calls).toEqual([]);
  });
});

describe('candidateFolders', () => {
  // Names where plain string order would split a folder's subfolders ('.' and '-' sort before '/').
  const files = ['a/x/1/f', 'a/x.y/f', 'a/x/2/f', 'a-b/f', 'a/x-z/g/f', 'a.b/c/f', 'top.ts', 'a/x/1/g', 'z/f', 'a/x/f'];
  const every = new Set(['']);
  for (const f of files) for (let i = f.indexOf('/'); i >= 0; i = f.indexOf('/', i + 1)) every.add(f.slice(0, i));

  it('names every folder once when they fit', () => {
    const { folders, total } = candidateFolders(files, 1000);
    expect([...folders].sort()).toEqual([...every].sort());
    expect(total).toBe(every.size);
  });

  it('takes whole levels, shallowest first, then part of the next', () => {
    const depthOf = (d: string) => (d ? d.split('/').length : 0);
    for (let max = 0; max <= every.size; max++) {
      const { folders, total } = candidateFolders(files, max);
      expect(total).toBe(every.size);
      expect(folders).toHaveLength(max);
      expect(new Set(folders).size).toBe(max);
      const deepest = Math.max(-1, ...folders.map(depthOf));
      // Every folder shallower than the deepest taken is taken.
      for (const d of every) if (depthOf(d) < deepest) expect(folders).toContain(d);
    }
  });
});
