// Two findings whose committable suggestions cover overlapping lines: GitHub would apply one and
// the other would then replace lines that are no longer there, so only one keeps its suggestion
// (the more severe; equal: more reviewers, then the lower id) and the other says why it has none.
import { describe, expect, it } from 'vitest';
import { diffLines } from '../../src/github/diff-lines.js';
import { inlineComments, placeInline } from '../../src/report/inline-places.js';
import type { Finding } from '../../src/domain/findings.js';
import { LOUD } from '../../src/report/inline-selection.js';
import { finding } from '../factories.js';

const LINES = diffLines(
  ['diff --git a/a.js b/a.js', '--- a/a.js', '+++ b/a.js', '@@ -1,10 +1,10 @@']
    .concat(Array.from({ length: 10 }, (_, i) => `+line ${i + 1}`))
    .join('\n'),
);

const at = (id: string, line: number, endLine: number | null, over: Partial<Finding> = {}): Finding =>
  finding({ id, file: 'a.js', line, endLine, replacement: `fix by ${id}`, suggestion: `do ${id}`, ...over });

function bodies(findings: Finding[]): Record<string, string> {
  const { chosen } = placeInline(findings, LINES, LOUD);
  const out: Record<string, string> = {};
  for (const c of inlineComments(chosen, 2, (t) => t))
    out[/fix by (\S+)|do (\S+)/.exec(c.body)?.slice(1).join('') ?? ''] = c.body;
  return out;
}

describe('overlapping suggestions', () => {
  it('the more severe finding keeps its suggestion; the other shows its advice and names it', () => {
    const b = bodies([at('QUAL-00000001', 3, 5, { priority: 'P2' }), at('BUG-00000002', 4, null, { priority: 'P0' })]);
    expect(b['BUG-00000002']).toContain('```suggestion\nfix by BUG-00000002\n```');
    const loser = b['QUAL-00000001']!;
    expect(loser).not.toContain('```suggestion');
    expect(loser).toContain('do QUAL-00000001');
    expect(loser).toContain('`BUG-00000002` has one for the same lines');
  });

  it('equal priority: more reviewers wins, then the lower id', () => {
    const one = ['reviewer-1'];
    const two = ['reviewer-1', 'reviewer-2'];
    let b = bodies([at('BUG-aaaaaaaa', 3, 4, { reportedBy: one }), at('BUG-bbbbbbbb', 4, 6, { reportedBy: two })]);
    expect(b['BUG-bbbbbbbb']).toContain('```suggestion');
    expect(b['BUG-aaaaaaaa']).not.toContain('```suggestion');
    b = bodies([at('BUG-bbbbbbbb', 3, 4, { reportedBy: two }), at('BUG-aaaaaaaa', 4, 6, { reportedBy: two })]);
    expect(b['BUG-aaaaaaaa']).toContain('```suggestion');
    expect(b['BUG-bbbbbbbb']).toContain('`BUG-aaaaaaaa` has one');
  });

  it('suggestions on lines that do not overlap both stay', () => {
    const b = bodies([at('BUG-aaaaaaaa', 2, 3), at('BUG-bbbbbbbb', 4, 5)]);
    expect(b['BUG-aaaaaaaa']).toContain('```suggestion');
    expect(b['BUG-bbbbbbbb']).toContain('```suggestion');
  });
});
