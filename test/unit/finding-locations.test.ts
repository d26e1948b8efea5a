// One problem in several places: how a reviewer's `locations` parse and combine with the
// top-level place, and that a finding with one place keeps the id and shape it always had.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findingSchema,
  MAX_LOCATIONS,
  MAX_PATH_CHARS,
  MAX_TEXT_CHARS,
  parseEnvelope,
  reviewerResultSchema,
  TRUNCATED_MARK,
  type RawFinding,
} from '../../src/agents/envelope.js';
import { findingId } from '../../src/review/finding-id.js';
import { findingPlaces } from '../../src/review/finding-places.js';
import { normalizeFinding } from '../../src/review/findings.js';

const raw = (over: Partial<RawFinding> = {}): RawFinding => ({
  priority: 'P1',
  category: 'correctness',
  title: 'Loop counter `i` overwrites the parameter',
  description: '',
  ...over,
});
const at = (file: string, line: number | null, more: { endLine?: number; replacement?: string } = {}) => ({
  file,
  line,
  endLine: more.endLine ?? null,
  replacement: more.replacement ?? null,
});

describe('the envelope', () => {
  it('parses a finding with locations, and one without them exactly as before', () => {
    const single = {
      priority: 'P2',
      category: 'correctness',
      file: 'a.js',
      line: 3,
      title: 'Bug',
      description: 'Off by one.',
    };
    expect(findingSchema.parse(single)).toEqual(single);
    const several = findingSchema.parse({
      ...single,
      locations: [
        { file: 'b.js', line: 4, endLine: 5, replacement: 'x\ny' },
        { file: 'c.js', line: 9 },
      ],
    });
    expect(several.locations).toEqual([
      { file: 'b.js', line: 4, endLine: 5, replacement: 'x\ny' },
      { file: 'c.js', line: 9 },
    ]);
  });

  it('keeps the first MAX_LOCATIONS places and cuts each oversize field with the mark', () => {
    const locations = Array.from({ length: 500 }, (_, i) => ({ file: `f${i}.js`, line: i + 1 }));
    const f = findingSchema.parse(
      raw({ locations: [{ file: 'x'.repeat(5_000), line: 1, replacement: 'y'.repeat(50_000) }, ...locations] }),
    );
    expect(f.locations).toHaveLength(MAX_LOCATIONS);
    expect(f.locations![0]!.file!.length).toBeLessThanOrEqual(MAX_PATH_CHARS);
    expect(f.locations![0]!.file!.endsWith(TRUNCATED_MARK)).toBe(true);
    expect(f.locations![0]!.replacement!.length).toBeLessThanOrEqual(MAX_TEXT_CHARS);
    expect(f.locations![1]).toEqual({ file: 'f0.js', line: 1 });
    // The combined list is capped too: a top-level place plus MAX_LOCATIONS others.
    expect(findingPlaces({ ...f, file: 'top.js', line: 1 })).toHaveLength(MAX_LOCATIONS);
  });

  it('refuses a location whose line is not a number, or that has no file at all', () => {
    expect(findingSchema.safeParse(raw({ locations: [{ file: 'a.js', line: 'two' }] as never })).success).toBe(false);
    expect(findingSchema.safeParse(raw({ locations: [{ line: 2 }] as never })).success).toBe(false);
  });

  it('parses every recorded real-model reviewer answer, none of which has locations', () => {
    const runs = path.join(__dirname, '../fixtures/real-model-runs');
    const answers = readdirSync(runs, { recursive: true, encoding: 'utf8' }).filter((p) =>
      /reviewer-\d+\.answer\.txt$/.test(p),
    );
    expect(answers.length).toBeGreaterThanOrEqual(4);
    for (const p of answers) {
      const r = parseEnvelope(readFileSync(path.join(runs, p), 'utf8'), reviewerResultSchema);
      expect(r.findings.length, p).toBeGreaterThan(0);
      for (const f of r.findings) {
        const n = normalizeFinding(f, 'reviewer-1');
        expect(n.locations, p).toBeUndefined();
        // The id is the one the formula always gave: category|file|line|title of its one place.
        expect(n.id).toBe(findingId({ category: n.category, file: f.file!.trim(), line: f.line!, title: n.title }));
      }
    }
  });
});

describe('findingPlaces: how locations combine with the top-level place', () => {
  it('a finding without locations has its one place, normalised as always', () => {
    expect(findingPlaces(raw({ file: './a.js ', line: 0, endLine: 4, replacement: 'x' }))).toEqual([at('a.js', null)]);
    expect(findingPlaces(raw({ file: 'a.js', line: 3, endLine: 3, replacement: 'x' }))).toEqual([
      at('a.js', 3, { replacement: 'x' }),
    ]);
    expect(findingPlaces(raw({}))).toEqual([{ file: null, line: null, endLine: null, replacement: null }]);
  });

  it('drops the line breaks that end a replacement, at the top level and in each location, and keeps the rest', () => {
    // The posted suggestion drops them too: the fixer must read the text a person would commit.
    const [top, other] = findingPlaces(
      raw({
        file: 'a.js',
        line: 3,
        replacement: '  a();\n  b();\n',
        locations: [{ file: 'b.js', line: 4, replacement: '\n  c();\r\n\n' }],
      }),
    );
    expect(top!.replacement).toBe('  a();\n  b();');
    expect(other!.replacement).toBe('\n  c();');
    // Nothing but breaks leaves the empty text the posted suggestion is built from too.
    expect(findingPlaces(raw({ file: 'a.js', line: 3, replacement: '\n' }))[0]!.replacement).toBe('');
  });

  it('puts the top-level place first, and merges a location at the same file and line into it', () => {
    const places = findingPlaces(
      raw({
        file: 'a.js',
        line: 5,
        locations: [
          { file: 'b.js', line: 7, replacement: 'B' },
          { file: './a.js', line: 5, endLine: 6, replacement: 'A' },
        ],
      }),
    );
    expect(places).toEqual([at('a.js', 5, { endLine: 6, replacement: 'A' }), at('b.js', 7, { replacement: 'B' })]);
  });

  it('takes the first location as the place when there is no top-level file', () => {
    const places = findingPlaces(
      raw({
        line: 99,
        locations: [
          { file: 'b.js', line: 7 },
          { file: 'c.js', line: 8 },
        ],
      }),
    );
    expect(places).toEqual([at('b.js', 7), at('c.js', 8)]);
  });

  it('fills a top-level file without a line from the first location in that file', () => {
    const places = findingPlaces(
      raw({
        file: 'a.js',
        locations: [
          { file: 'b.js', line: 1 },
          { file: 'a.js', line: 5, replacement: 'A' },
        ],
      }),
    );
    expect(places).toEqual([at('a.js', 5, { replacement: 'A' }), at('b.js', 1)]);
  });

  it('drops a location without a file and keeps each file and line once', () => {
    const places = findingPlaces(
      raw({
        file: 'a.js',
        line: 1,
        locations: [
          { file: '  ', line: 2 },
          { file: null, line: 3 },
          { file: 'b.js', line: 2 },
          { file: './b.js', line: 2 },
        ],
      }),
    );
    expect(places).toEqual([at('a.js', 1), at('b.js', 2)]);
  });
});

describe('normalizeFinding with locations', () => {
  it('derives the id from the first place: the same id as the finding at that one place', () => {
    const one = normalizeFinding(raw({ file: 'lib/charset.js', line: 61 }), 'reviewer-1');
    const three = normalizeFinding(
      raw({
        locations: [
          { file: 'lib/charset.js', line: 61 },
          { file: 'lib/encoding.js', line: 77 },
          { file: 'lib/language.js', line: 66 },
        ],
      }),
      'reviewer-1',
    );
    expect(three.id).toBe(one.id);
    expect(one.id).toBe(findingId({ category: 'correctness', file: 'lib/charset.js', line: 61, title: one.title }));
    expect([three.file, three.line]).toEqual(['lib/charset.js', 61]);
    expect(three.locations!.map((p) => `${p.file}:${p.line}`)).toEqual([
      'lib/charset.js:61',
      'lib/encoding.js:77',
      'lib/language.js:66',
    ]);
    expect(one).not.toHaveProperty('locations');
  });

  it('gives a finding whose locations name one place no locations at all', () => {
    const f = normalizeFinding(raw({ locations: [{ file: 'a.js', line: 2, replacement: 'x' }] }), 'reviewer-1');
    expect(f).not.toHaveProperty('locations');
    expect([f.file, f.line, f.replacement]).toEqual(['a.js', 2, 'x']);
  });
});
