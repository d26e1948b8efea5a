// The prompt's summary of the changed files (src/roles/prompt-data.ts): the same size however
// large the PR, with counts, the first paths and a pointer to files.json.
import { describe, expect, it } from 'vitest';
import type { PrFile } from '../../src/domain/pull-request.js';
import { fillTemplate, loadPrompts } from '../../src/roles/prompts.js';
import { sharedPromptValues } from '../../src/roles/prompt-data.js';
import { prContext, PROMPTS_URL } from '../factories.js';

const many = (n: number): PrFile[] =>
  Array.from({ length: n }, (_v, i) => ({
    filename: `packages/app/src/generated/module-${i}.ts`,
    status: 'added',
    additions: 30,
    deletions: 0,
  }));

describe('sharedPromptValues: the changed files', () => {
  it('lists a small PR whole, with counts', () => {
    const files: PrFile[] = [
      { filename: 'src/math.js', status: 'modified', additions: 1, deletions: 1 },
      { filename: 'docs/new.md', previousFilename: 'docs/old.md', status: 'renamed', additions: 2, deletions: 0 },
      { filename: 'logo.png', status: 'added', additions: 0, deletions: 0, binary: true },
    ];
    const v = sharedPromptValues(prContext({ files }), 1, '/tmp/ctx');
    expect(v.prData).toContain('Changed files: 3 (+3/-1; 1 modified, 1 renamed, 1 added)');
    expect(v.prData).toContain(
      'modified src/math.js (+1/-1)\nrenamed docs/old.md → docs/new.md (+2/-0)\nadded logo.png (binary)',
    );
    expect(v.prData).not.toContain('files.json');
    expect(v.diffNote).toBe('');
  });

  it('does not grow with the PR: 3,000 files cost what 60 do, and files.json has the rest', async () => {
    const reviewer = (await loadPrompts(PROMPTS_URL)).reviewer;
    const values = (n: number) => sharedPromptValues(prContext({ files: many(n) }), 1, '/tmp/ctx');
    const size = (n: number) =>
      fillTemplate(reviewer, { ...values(n), laterRound: '', ownEarlier: '', answerFormat: 'ANSWER', largeDiff: '' })
        .length;
    expect(size(3000)).toBeLessThanOrEqual(size(60) + 10);
    expect(size(3000)).toBeLessThan(12_000);
    const v = sharedPromptValues(prContext({ files: many(3000) }), 1, '/tmp/ctx');
    expect(v.prData).toContain('Changed files: 3000 (+90000/-0; 3000 added); the first 50, all of them in files.json');
    expect(v.prData).toContain('module-49.ts');
    expect(v.prData).not.toContain('module-50.ts');
  });

  it('cuts very long paths', () => {
    const files: PrFile[] = [{ filename: `${'deep/'.repeat(400)}x.ts`, status: 'added', additions: 1, deletions: 0 }];
    expect(String(sharedPromptValues(prContext({ files }), 1, '/tmp/ctx').prData).length).toBeLessThan(600);
  });

  it('says when the diff is large-diff sampled, and how much of it the diff holds', () => {
    const files: PrFile[] = [
      { filename: 'a.ts', status: 'added', additions: 1, deletions: 0, inDiff: 'full' },
      { filename: 'b.ts', status: 'added', additions: 9000, deletions: 0, inDiff: 'partial' },
      { filename: 'c.ts', status: 'added', additions: 9000, deletions: 0, inDiff: 'omitted' },
    ];
    const v = sharedPromptValues(prContext({ files, diffTruncated: true }), 1, '/tmp/ctx');
    expect(v.diffNote).toBe(' (large-diff sampled: 1 of 3 files in full, 1 in part, 1 omitted; files.json says which)');
  });
});
