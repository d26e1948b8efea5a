// The block model in commonmark-lines.ts against a real parser (micromark + GFM) on thousands of
// random documents built from the constructs where CommonMark parsers are easiest to get wrong:
// nested block quotes and list items, tabs, lazy lines, fences of both kinds and lengths, info
// strings with backticks, tables, HTML. Seeded, so a failure reproduces.
import { describe, expect, it } from 'vitest';
import { block } from '../../src/report/format.js';
import { sanitize, TRUNCATED_SUFFIX } from '../../src/security/sanitize.js';
import { generator, liveProblems, render } from './markdown-render.js';

const PREFIXES = [
  ...['', ' ', '  ', '   ', '    ', '\t', '> ', '>', ' > ', '>\t'],
  ...['- ', '* ', '1. ', '2) ', '-', '10. ', '+   ', '1.     ', '-\t'],
];
const FENCES = [
  ...['```', '````', '~~~', '``` js', '``` a`b', '~~~ a`b', '```   ', '```\t'],
  ...['~~~~~', '`````', '  ```', '   ~~~', '    ```'],
];
const LEAVES = [
  ...FENCES,
  '@bob <img src=x>',
  'text',
  '',
  '---',
  '===',
  '| a | b |',
  '| - | - |',
  '# h',
  '    code',
  '<div>',
  '[x]: https://e.x',
  '> [!NOTE]',
  '[!CAUTION]',
  '`x`',
  '`` ` ``',
  '&#64;bob',
  '![i](https://e.x/p)',
  '[l](https://e.x)',
  'www.e.x',
  '*a*',
  '1.',
  '- [ ] task',
  '| `a | b` |',
  '<x-y a="1">',
  '</details>',
  '- - -',
  '_ _ _',
];
const OUR_MARKUP = [
  ...['<details><summary>Log</summary>', '</details>', '', '#### P1'],
  ...['**`BUG-1`** · title<br>', '| a | b |', '| --- | --- |'],
];

function randomDocument(rnd: (n: number) => number, leaves: string[]): string {
  const lines: string[] = [];
  for (let i = 2 + rnd(12); i > 0; i--) {
    let prefix = '';
    for (let d = rnd(4); d > 0; d--) prefix += PREFIXES[rnd(PREFIXES.length)];
    lines.push(prefix + leaves[rnd(leaves.length)]);
  }
  return lines.join('\n');
}

describe('the block model agrees with micromark', () => {
  // The same 2,500 documents in five tests of 500: each parse of block()'s code spans is a real
  // micromark parse (code-spans.ts), and one test of 2,500 came near the test timeout under load.
  it.each([1, 2, 3, 4, 5])(
    'block(): no random document yields a live construct or swallows the text after it (%i of 5)',
    (part) => {
      const rnd = generator(7);
      const failures: string[] = [];
      for (let k = 0; k < 2500 && failures.length < 5; k++) {
        const text = randomDocument(rnd, LEAVES);
        if (Math.floor(k / 500) + 1 !== part) continue;
        const html = render(`${block(text)}\n\nSENTINEL`);
        const problems = liveProblems(html);
        const swallowed = !/<p>SENTINEL<\/p>\s*$/.test(html);
        if (problems.length || swallowed) failures.push(`${JSON.stringify(text)}: ${problems.join('; ')}`);
      }
      expect(failures).toEqual([]);
    },
  );

  it('the 60,000 cap: the suffix after a cut renders as text, whatever was open at the cut', () => {
    const rnd = generator(11);
    const failures: string[] = [];
    for (let k = 0; k < 1500 && failures.length < 5; k++) {
      const text = randomDocument(rnd, [...FENCES, ...OUR_MARKUP, 'text', '    code']);
      if (text.length < 10) continue;
      const max = TRUNCATED_SUFFIX.length + 40 + rnd(text.length);
      if (max >= text.length) continue;
      const html = render(sanitize(text, { maxChars: max }));
      if (!/<p>\[TRUNCATED_COMMENT\]<\/p>\s*$/.test(html)) failures.push(`${JSON.stringify(text)} cut at ${max}`);
    }
    expect(failures).toEqual([]);
  });
});
