// Grouping with findings of several places: two reviewers agree when any place of one meets any
// place of the other, whatever order they answered in and however each split the problem.
import { describe, expect, it } from 'vitest';
import type { RawFinding } from '../../src/agents/envelope.js';
import { groupFindings, normalizeFinding } from '../../src/review/findings.js';
import { sameProblem } from '../../src/review/similarity.js';
import type { Finding } from '../../src/domain/findings.js';

const FILES = {
  charset: ['lib/charset.js', 61],
  encoding: ['lib/encoding.js', 77],
  language: ['lib/language.js', 66],
} as const;
const ALL = Object.values(FILES);

/** Reviewer A: the bug once, at its three places, each with its own replacement. */
const once = (over: Partial<RawFinding> = {}): RawFinding => ({
  priority: 'P1',
  category: 'correctness',
  title: 'Loop counter `var i` overwrites the position parameter in three parsers',
  description:
    '`for (var i = 0; ...)` reassigns the `i` parameter, so the returned `{ i: i }` is the index of the q ' +
    'parameter, not the entry position in parseCharset, parseEncoding and parseLanguage.',
  locations: ALL.map(([file, line]) => ({ file, line, replacement: `fixed ${file}` })),
  ...over,
});

/** Reviewer B: the same bug reported in one file, in its own words. */
const inOne = (which: keyof typeof FILES, over: Partial<RawFinding> = {}): RawFinding => {
  const [file, line] = FILES[which];
  const fn = `parse${which[0]!.toUpperCase()}${which.slice(1)}`;
  return {
    priority: 'P1',
    category: 'correctness',
    file,
    line,
    title: `${fn} reuses its argument as the loop index`,
    description: `In ${fn}, \`for (var i = 0; ...)\` clobbers the \`i\` argument; \`{ i: i }\` then holds a wrong position.`,
    ...over,
  };
};

const norm = (reviewer: string, fs: RawFinding[]): Finding[] => fs.map((f) => normalizeFinding(f, reviewer));
const places = (f: Finding) => (f.locations ?? [f]).map((p) => `${p.file}:${p.line}`);

describe('sameProblem with several places', () => {
  it('meets at any place of either side, and not where no place meets', () => {
    const a = normalizeFinding(once(), 'reviewer-1');
    const b = normalizeFinding(inOne('language'), 'reviewer-2');
    expect(sameProblem(a, b, { useLines: true, crossReviewer: true })).toBe(true);
    expect(sameProblem(b, a, { useLines: true, crossReviewer: true })).toBe(true);
    // The same words 10 lines away from every place: apart.
    const far = normalizeFinding(inOne('language', { line: 76 }), 'reviewer-2');
    expect(sameProblem(a, far, { useLines: true, crossReviewer: true })).toBe(false);
    // Across rounds lines are ignored: the same title in any of its files is enough, elsewhere it is not.
    const moved = { ...far, title: a.title };
    expect(sameProblem(a, moved, { useLines: false })).toBe(true);
    expect(sameProblem({ ...moved, file: 'lib/other.js' }, a, { useLines: false })).toBe(false);
  });
});

describe('groupFindings with several places', () => {
  it("one finding at three places and another reviewer's three findings are one problem, 2/2", () => {
    const grouped = groupFindings([
      ...norm('reviewer-1', [once()]),
      ...norm('reviewer-2', [inOne('charset'), inOne('encoding'), inOne('language')]),
    ]);
    expect(grouped).toHaveLength(1);
    const [g] = grouped;
    expect(g!.reportedBy).toEqual(['reviewer-1', 'reviewer-2']);
    expect(places(g!)).toEqual(['lib/charset.js:61', 'lib/encoding.js:77', 'lib/language.js:66']);
    expect(g!.members).toHaveLength(4);
    expect(g!.aliases).toHaveLength(3);
    // Each place keeps its own replacement.
    expect(g!.locations!.map((p) => p.replacement)).toEqual(ALL.map(([file]) => `fixed ${file}`));
  });

  it('is one problem in the other order too: the groups a finding joins through its places become one', () => {
    const grouped = groupFindings([
      ...norm('reviewer-1', [inOne('charset'), inOne('encoding'), inOne('language')]),
      ...norm('reviewer-2', [once()]),
    ]);
    expect(grouped).toHaveLength(1);
    expect(grouped[0]!.reportedBy).toEqual(['reviewer-1', 'reviewer-2']);
    expect(grouped[0]!.members!.map((m) => m.reviewer)).toEqual([
      'reviewer-1',
      'reviewer-1',
      'reviewer-1',
      'reviewer-2',
    ]);
    expect(places(grouped[0]!)).toEqual(['lib/charset.js:61', 'lib/encoding.js:77', 'lib/language.js:66']);
  });

  it('a reviewer that reported it at one place agrees, and the group shows every place', () => {
    const grouped = groupFindings([
      ...norm('reviewer-1', [inOne('encoding', { priority: 'P0' })]),
      ...norm('reviewer-2', [once()]),
    ]);
    expect(grouped).toHaveLength(1);
    // The shown member is the most severe (one place), yet the group is about all three.
    expect(grouped[0]!.priority).toBe('P0');
    expect(places(grouped[0]!)).toEqual(['lib/encoding.js:77', 'lib/charset.js:61', 'lib/language.js:66']);
  });

  it('keeps another bug of the same reviewer at one of the places apart', () => {
    const other = inOne('charset', {
      title: 'parseCharset throws on an empty header',
      description: '`str.split` is called on undefined.',
    });
    const grouped = groupFindings([...norm('reviewer-1', [once()]), ...norm('reviewer-2', [inOne('charset'), other])]);
    expect(grouped.map((g) => g.reportedBy.length).sort()).toEqual([1, 2]);
    expect(grouped.find((g) => g.title === other.title)!.reportedBy).toEqual(['reviewer-2']);
  });

  it('leaves findings with one place grouped as they always were, with no locations', () => {
    const grouped = groupFindings(
      norm('reviewer-1', [inOne('charset')]).concat(norm('reviewer-2', [inOne('charset')])),
    );
    expect(grouped).toHaveLength(1);
    expect(grouped[0]).not.toHaveProperty('locations');
    expect(grouped[0]!.id).toBe(normalizeFinding(inOne('charset'), 'reviewer-1').id);
  });
});
