// Agent text must not speak with the bot's voice (docs/decisions/0009-reports-are-neutralised.md).
// Every string of the hostile corpus goes through the report helpers (block() for prose, inline()
// for one-line fields) and is rendered by a real CommonMark + GFM parser; nothing live may come out.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { block, inline, table } from '../../src/report/format.js';
import { codeTexts, liveProblems, render } from './markdown-render.js';

interface Corpus {
  hostile: { name: string; text: string }[];
  keep: { name: string; text: string; code: string[] }[];
}
const corpusFile = new URL('../fixtures/hostile/markdown-corpus.json', import.meta.url);
const corpus: Corpus = JSON.parse(readFileSync(corpusFile, 'utf8'));
const hostile = corpus.hostile.map((c) => [c.name, c.text] as const);
const SENTINEL = 'SENTINEL-AFTER-AGENT-TEXT';

describe('block(): hostile agent markdown renders inert', () => {
  it.each(hostile)('%s', (_name, text) => {
    const html = render(block(text));
    expect(liveProblems(html), html).toEqual([]);
  });

  it.each(hostile)('%s: the text cannot swallow what the report writes after it', (_name, text) => {
    const html = render(`${block(text)}\n\n${SENTINEL}`);
    expect(html, html).toMatch(new RegExp(`(?:^|\\n)<p>${SENTINEL}</p>\\s*$`));
  });

  it.each(hostile)('%s: neutralising twice changes nothing', (_name, text) => {
    expect(block(block(text))).toBe(block(text));
  });
});

describe('block(): fenced code stays byte-exact', () => {
  it.each(corpus.keep.map((c) => [c.name, c.text, c.code] as const))('%s', (_name, text, code) => {
    const html = render(block(text));
    expect(liveProblems(html)).toEqual([]);
    for (const c of code) expect(codeTexts(html)).toContain(c);
  });
});

describe('inline(): hostile one-line fields render inert', () => {
  it.each(hostile)('%s, at the start of a paragraph', (_name, text) => {
    const html = render(`${inline(text, 2000)}\n\n${SENTINEL}`);
    expect(liveProblems(html), html).toEqual([]);
    expect(html).toMatch(new RegExp(`<p>${SENTINEL}</p>\\s*$`));
  });

  it.each(hostile)('%s, mid-sentence', (_name, text) => {
    const html = render(`**\`BUG-1\`** · ${inline(text, 2000)} · [\`a.ts\`](https://github.com/o/r/blob/s/a.ts)`);
    expect(liveProblems(html, { allowTags: ['a'] }), html).toEqual([]);
    expect(html.match(/<a /g)).toHaveLength(1);
  });

  it.each(hostile)('%s, in a table cell', (_name, text) => {
    const html = render(table(['Name', 'Status'], [[inline(text, 2000), 'ok']]));
    expect(liveProblems(html), html).toEqual([]);
    expect(html.match(/<td>/g)).toHaveLength(2);
  });
});

describe('long runs of one character keep their exact output', () => {
  // Each regex here once restarted at every character of such a run (quadratic: seconds at
  // 200,000 characters, far longer at the 8 MiB a command's output may be). A blocked event loop
  // fires no timeout, so what a test can check is the result on input of that size.
  const N = 200_000;
  const blanks = ' '.repeat(N);
  const slashes = '\\'.repeat(N);

  it('inline(): blanks with and without a line break, backslashes before a backtick or a pipe', () => {
    expect(inline(`${blanks}x`)).toBe('x');
    expect(inline(`a${blanks}b`, 2 * N)).toBe(`a${blanks}b`);
    expect(inline(`a${blanks}\n${blanks}b`, 2 * N)).toBe('a b');
    // An even run escapes nothing, so the backtick and the pipe get their own backslash.
    expect(inline(`${slashes}\`x`, 2 * N)).toBe(`${slashes}\\\`x`);
    expect(inline(`${slashes}|x`, 2 * N)).toBe(`${slashes}\\|x`);
    expect(inline(`${slashes}x`, 2 * N)).toBe(`${slashes}x`);
  });

  it('block(): a long fence whose info string holds U+2028 opens a fence, which is closed', () => {
    const tildes = '~'.repeat(N);
    expect(block(`${tildes}\u2028x\ncode`)).toBe(`${tildes}\u2028x\ncode\n${tildes}`);
    const tabs = '\t'.repeat(N);
    expect(block(`\`\`\`${tabs}\u2028x\ncode`)).toBe(`\`\`\`${tabs}\u2028x\ncode\n\`\`\``);
  });

  it('block(): a table row of spaces that is no delimiter row, and a run of backslashes', () => {
    expect(block(`a | b\n|-${blanks}x`)).toBe(`a | b\n|-${blanks}x`);
    expect(block(`a | b\n|-${blanks}|`)).toBe(`a | b\n|-${blanks}|`);
    expect(block(`${slashes}x`)).toBe(`${slashes}x`);
  });
});
