import { describe, expect, it } from 'vitest';
import type { RawFinding } from '../../src/agents/envelope.js';
import { countFindings, groupFindings, normalizeFinding } from '../../src/review/findings.js';
import { findingId } from '../../src/review/finding-id.js';
import { sameProblem, titleSimilarity } from '../../src/review/similarity.js';
import type { Finding } from '../../src/domain/findings.js';

function raw(over: Partial<RawFinding> = {}): RawFinding {
  return {
    priority: 'P1',
    category: 'correctness',
    file: 'src/math.js',
    line: 2,
    title: 'add() subtracts instead of adding',
    description: 'returns a - b',
    ...over,
  };
}

/** Reviewer outputs in reviewer order, normalised the way the round does it. */
function reported(...byReviewer: [string, RawFinding[]][]): Finding[] {
  return byReviewer.flatMap(([name, fs]) => fs.map((f) => normalizeFinding(f, name)));
}

describe('normalizeFinding', () => {
  it('computes the id itself, ignoring the agent-provided one, and cleans the path', () => {
    const f = normalizeFinding(
      raw({ id: 'BUG-00000000', file: './src/math.js', category: ' Correctness ' }),
      'reviewer-2',
    );
    expect(f.id).toBe(
      findingId({ category: 'correctness', file: 'src/math.js', line: 2, title: 'add() subtracts instead of adding' }),
    );
    expect(f.file).toBe('src/math.js');
    expect(f.source).toEqual({ type: 'agent', name: 'reviewer-2', reviewId: null });
    expect(f.reportedBy).toEqual(['reviewer-2']);
  });

  it('treats line 0 or a missing line as unknown', () => {
    expect(normalizeFinding(raw({ line: 0 }), 'r').line).toBeNull();
    expect(normalizeFinding(raw({ line: null }), 'r').line).toBeNull();
  });
});

describe('groupFindings', () => {
  it("keeps the range and the replacement of the member whose text it keeps, never another member's", () => {
    const out = groupFindings(
      reported(
        ['reviewer-1', [raw({ priority: 'P2', line: 10, endLine: 12, replacement: 'new 10-12' })]],
        ['reviewer-2', [raw({ priority: 'P1', line: 8 })]],
      ),
    );
    expect(out).toHaveLength(1);
    // The P1 member's text wins; its single line has no replacement, so none is kept.
    expect(out[0]).toMatchObject({ priority: 'P1', line: 8, endLine: null, replacement: null });
  });

  it('does not group different problems reported at the same line', () => {
    const out = groupFindings(
      reported(
        [
          'reviewer-1',
          [raw({ category: 'security', file: 'src/db.js', line: 10, title: 'SQL injection through the order id' })],
        ],
        [
          'reviewer-2',
          [raw({ category: 'testing', file: 'src/db.js', line: 10, title: 'Missing unit test for the query builder' })],
        ],
      ),
    );
    expect(out).toHaveLength(2);
    expect(out.every((f) => f.reportedBy.length === 1)).toBe(true);
  });

  // BUG: sameProblem() treats two findings of the same category at the same line as one
  // problem as soon as their titles share ANY word (similarity > 0). Titles very often share
  // the function name, so a second, different bug at that line is merged into the first and
  // vanishes from the report and from the fix payload (here: the empty-string crash).
  it('does not group two different bugs of one category at one line that only share the function name', () => {
    const out = groupFindings(
      reported(
        ['reviewer-1', [raw({ file: 'src/date.js', line: 14, title: 'parseDate() ignores the timezone offset' })]],
        ['reviewer-2', [raw({ file: 'src/date.js', line: 14, title: 'parseDate() throws on an empty string' })]],
      ),
    );
    expect(out).toHaveLength(2);
  });

  // A reviewer that reports two findings at one line says they are two problems: only titles
  // that say the same may join them (as a reviewer listed twice for one problem, below). Relay
  // run 68 (go-version, real models): reviewer-1's pre-release bug, anchored on the line of its
  // segment bug, vanished into that group because the titles shared a quarter of their words,
  // and the fixer got it only as another reviewer's words of the segment bug.
  it("keeps one reviewer's two findings at one line apart when their titles share only some words", () => {
    const segments = '~> with one or two segments now accepts versions below the constraint';
    const prerelease = '~> with a pre-release now accepts a lower pre-release of the same version';
    const out = groupFindings(
      reported(
        [
          'reviewer-1',
          [
            raw({ file: 'constraint.go', line: 196, title: segments }),
            raw({ file: 'constraint.go', line: 196, title: prerelease }),
          ],
        ],
        [
          'reviewer-2',
          [
            raw({
              file: 'constraint.go',
              line: 192,
              endLine: 196,
              title: '`~> X.Y` no longer rejects versions below it',
            }),
            raw({
              file: 'constraint.go',
              line: 171,
              endLine: 174,
              title: '`~>` with a pre-release accepts lower ones',
            }),
          ],
        ],
      ),
    );
    const titlesOf = (f: Finding) => (f.members ?? [f]).map((m) => m.title);
    const holding = (t: string) => out.filter((f) => titlesOf(f).includes(t));
    expect(holding(segments)).toHaveLength(1);
    expect(holding(prerelease)).toHaveLength(1);
    expect(holding(segments)[0]).not.toBe(holding(prerelease)[0]);
  });

  it('groups one problem worded differently within 3 lines: union of reporters, most severe priority kept', () => {
    const out = groupFindings(
      reported(
        ['reviewer-1', [raw({ priority: 'P2', line: 2, title: 'add() subtracts instead of adding' })]],
        [
          'reviewer-2',
          [
            raw({
              priority: 'P0',
              category: 'bug',
              line: 4,
              title: 'add subtracts the operands instead of adding them',
            }),
          ],
        ],
      ),
    );
    expect(out).toHaveLength(1);
    const g = out[0]!;
    expect(g.priority).toBe('P0');
    expect(g.reportedBy).toEqual(['reviewer-1', 'reviewer-2']);
    // The group carries the id and text of its most severe member.
    expect(g.id).toBe(
      normalizeFinding(
        raw({ priority: 'P0', category: 'bug', line: 4, title: 'add subtracts the operands instead of adding them' }),
        'x',
      ).id,
    );
    expect(g.line).toBe(4);
  });

  it('does not group the same wording more than 3 lines apart', () => {
    const out = groupFindings(reported(['reviewer-1', [raw({ line: 2 })]], ['reviewer-2', [raw({ line: 6 })]]));
    expect(out).toHaveLength(2);
  });

  it('does not group the same title in different files', () => {
    const title = 'Unchecked return value of fs.write';
    const out = groupFindings(
      reported(['reviewer-1', [raw({ file: 'src/a.js', title })]], ['reviewer-2', [raw({ file: 'src/b.js', title })]]),
    );
    expect(out.map((f) => f.file).sort()).toEqual(['src/a.js', 'src/b.js']);
  });

  it('three reviewers agreeing give one finding reported by three', () => {
    const out = groupFindings(
      reported(
        ['reviewer-1', [raw({ title: 'add() subtracts instead of adding' })]],
        ['reviewer-2', [raw({ line: 3, title: 'add() subtracts instead of adding the numbers' })]],
        ['reviewer-3', [raw({ line: 1, priority: 'P0', title: 'Subtracts instead of adding in add()' })]],
      ),
    );
    expect(out).toHaveLength(1);
    expect(out[0]!.reportedBy).toEqual(['reviewer-1', 'reviewer-2', 'reviewer-3']);
    expect(out[0]!.priority).toBe('P0');
  });

  it('a reviewer listed twice for one problem is counted once', () => {
    const out = groupFindings(reported(['reviewer-1', [raw(), raw({ line: 3 })]], ['reviewer-2', [raw()]]));
    expect(out).toHaveLength(1);
    expect(out[0]!.reportedBy).toEqual(['reviewer-1', 'reviewer-2']);
  });

  it('orders by priority, then agreement, then id, and is deterministic', () => {
    const input = reported(
      [
        'reviewer-1',
        [
          raw({ priority: 'P3', file: 'README.md', line: 1, category: 'docs', title: 'Typo in heading' }),
          raw({
            priority: 'P1',
            file: 'src/cart.js',
            line: 40,
            category: 'performance',
            title: 'Quadratic loop over cart items',
          }),
          raw({
            priority: 'P1',
            file: 'src/db.js',
            line: 10,
            category: 'security',
            title: 'SQL injection through the order id',
          }),
        ],
      ],
      [
        'reviewer-2',
        [
          raw({
            priority: 'P1',
            file: 'src/db.js',
            line: 11,
            category: 'security',
            title: 'SQL injection via order id',
          }),
        ],
      ],
    );
    const out = groupFindings(input);
    expect(out.map((f) => [f.priority, f.file, f.reportedBy.length])).toEqual([
      ['P1', 'src/db.js', 2],
      ['P1', 'src/cart.js', 1],
      ['P3', 'README.md', 1],
    ]);
    expect(groupFindings(input)).toEqual(out);
    // Separate problems do not depend on the order reviewers listed them in.
    const reversed = reported(
      ['reviewer-1', [...input.slice(0, 3)].reverse().map(toRaw)],
      ['reviewer-2', [toRaw(input[3]!)]],
    );
    expect(groupFindings(reversed).map((f) => f.id)).toEqual(out.map((f) => f.id));
  });

  it('does not change the findings it is given', () => {
    const input = reported(['reviewer-1', [raw()]], ['reviewer-2', [raw({ priority: 'P0' })]]);
    const copy = structuredClone(input);
    groupFindings(input);
    expect(input).toEqual(copy);
  });
});

function toRaw(f: Finding): RawFinding {
  return {
    priority: f.priority,
    category: f.category,
    file: f.file,
    line: f.line,
    title: f.title,
    description: f.description,
  };
}

describe('similarity', () => {
  it('ignores case, stop words and simple inflections', () => {
    expect(titleSimilarity('Adds the numbers', 'add number')).toBe(1);
    expect(titleSimilarity('SQL injection', 'Missing test')).toBe(0);
  });

  it('follows renames when comparing files', () => {
    const a = { category: 'bug', file: 'src/old.js', line: null, title: 'Off-by-one in loop bound' };
    const b = { ...a, file: 'src/new.js' };
    expect(sameProblem(a, b, { useLines: false })).toBe(false);
    expect(sameProblem(a, b, { useLines: false, renames: new Map([['src/old.js', 'src/new.js']]) })).toBe(true);
  });
});

describe('countFindings', () => {
  it('counts each priority', () => {
    const fs = reported([
      'r',
      [raw({ priority: 'P0' }), raw({ priority: 'P2' }), raw({ priority: 'P2' }), raw({ priority: 'P3' })],
    ]);
    expect(countFindings(fs)).toEqual({ p0: 1, p1: 0, p2: 2, p3: 1 });
    expect(countFindings([])).toEqual({ p0: 0, p1: 0, p2: 0, p3: 0 });
  });
});
