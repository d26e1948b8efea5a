// Code in a report renders exactly as the agent wrote it: the text of each code span and fenced
// block, as a real CommonMark + GFM parser (micromark) renders it, is the text of the same code
// in the agent's own markdown, with no character added; and nothing outside code is live.
import { describe, expect, it } from 'vitest';
import { renderInlineComment } from '../../src/report/inline-comment.js';
import { block, code, inline, table } from '../../src/report/format.js';
import { renderReviewReport } from '../../src/report/markdown.js';
import { sanitize, TRUNCATED_SUFFIX } from '../../src/security/sanitize.js';
import { shopFinding as finding, shopReportCtx as ctx, shopReviewRecord as reviewRecord } from '../factories.js';
import { codeTexts, generator, liveProblems, render } from './markdown-render.js';

const ZWSP = '\u200b';

/** The text of every inline code element (not of code blocks), as a reader copies it. */
function spanTexts(html: string): string[] {
  return codeTexts(html.replace(/<pre>[\s\S]*?<\/pre>/g, ''));
}

describe('code spans render as written', () => {
  // A finding like the Python run's, whose report carried 15 spans with a hidden character.
  const python = finding({
    title: "`@click` options reject `'a@b'` keys and `<script>` is still let through",
    description:
      'The check in `_attr_ok()` now refuses `key@domain`; `@pytest.mark.parametrize` cases with ' +
      "`{'a@b': 1}` fail. Compare `a || b` and `x |> y`, and `&amp;` stays `&amp;`.",
    suggestion: 'Keep `@click.option("--name")` working: test `render("<b>")` gives `&lt;b&gt;`.',
  });
  const expected = [
    '@click',
    "'a@b'",
    '<script>',
    '_attr_ok()',
    'key@domain',
    '@pytest.mark.parametrize',
    "{'a@b': 1}",
    'a || b',
    'x |> y',
    '&amp;',
    '@click.option("--name")',
    'render("<b>")',
    '&lt;b&gt;',
  ];

  it('in the round report: every span of a title, description and suggestion, byte for byte', () => {
    const html = render(renderReviewReport(reviewRecord({ findings: [python] }), ctx));
    const spans = spanTexts(html);
    for (const text of expected) expect(spans).toContain(text);
    expect(spans.filter((s) => s.includes(ZWSP))).toEqual([]);
    expect(liveProblems(html, { allowTags: ['a', 'details', 'summary', 'sub', 'h2', 'h3', 'h4', 'hr'] })).toEqual([]);
  });

  it('in an inline comment too', () => {
    const html = render(renderInlineComment(python, 2));
    const spans = spanTexts(html);
    for (const text of expected.slice(0, 3)) expect(spans).toContain(text);
    expect(spans.filter((s) => s.includes(ZWSP))).toEqual([]);
  });

  it('outside code the same text is still defused', () => {
    const md = block('Ping @octocat <img src=x> and `@octocat` <b>bold</b>');
    const html = render(md);
    expect(liveProblems(html)).toEqual([]);
    expect(spanTexts(html)).toEqual(['@octocat']);
    expect(md).toContain(`@${ZWSP}octocat <${ZWSP}img`);
  });

  it('an unmatched backtick stays prose, and its mention is defused', () => {
    for (const text of ['`@bob has no end', 'a `` b ` @bob', 'x\\`@bob`']) {
      const html = render(`${block(text)}\n\n${inline(text)}`);
      expect(liveProblems(html), text).toEqual([]);
    }
  });

  it('defusing cannot turn prose into code: an HTML block or a heading stays text', () => {
    // In the source these backticks are inside an HTML block or end a heading: no span there.
    for (const text of ['<div>\n`@bob` <img src=x>\n</div>', '# `a\n`@bob`', '<summary>`x` @bob</summary>']) {
      const html = render(block(text));
      expect(liveProblems(html), text).toEqual([]);
      expect(
        spanTexts(html).filter((s) => s.includes(ZWSP)),
        text,
      ).toEqual([]);
    }
  });

  it('a span in a table cell keeps its pipes, escaped backslash and all', () => {
    const cells = ['a | b', 'a \\| b', 'x || y', '`|`'];
    for (const c of cells) {
      const md = table(['Name', 'Status'], [[inline(`run ${code(c)} now`), code(c)]]);
      const html = render(md);
      expect(html.match(/<td>/g), md).toHaveLength(2);
      // In the cell: through inline(), and as code() alone.
      const got = spanTexts(html);
      // Only a backslash right before a pipe needs a ZWSP between them in a cell (format.ts).
      expect(
        got.map((s) => s.replace(`\\${ZWSP}|`, '\\|')),
        md,
      ).toEqual([c, c]);
    }
  });

  it('a secret inside a span is redacted, and the span is still a span', () => {
    const token = `ghp_${'A1b2C3d4E5'.repeat(3)}123456`;
    const html = render(sanitize(block(`Set \`GITHUB_TOKEN=${token}\` in @ci`)));
    expect(html).not.toContain(token);
    expect(spanTexts(html)).toEqual(['GITHUB_TOKEN=[REDACTED]']);
    expect(liveProblems(html)).toEqual([]);
  });
});

// Random documents mixing spans with what a span may hold (mentions, HTML, pipes, entities,
// backticks) and the blocks around them (tables, quotes, lists, fences, HTML blocks, headings).
const SPAN_LEAVES = [
  '`@bob`',
  '`<img src=x>`',
  '`a | b`',
  '`&#64;x`',
  '`` ` ``',
  '``a`b``',
  '`[l](https://e.x)`',
  'x `www.e.x` y',
  '`unclosed @bob',
  '@bob <b>x</b>',
  '| `a | b` | c |',
  '| - | - |',
  '| `x\\|y` | @bob |',
  '<div>',
  '</div>',
  '# `h`',
  '---',
  '```',
  '~~~ js',
  '',
  'text',
  '    `indented`',
];
const PREFIXES = ['', '> ', '- ', '1. ', '  ', '>'];

function randomDocument(rnd: (n: number) => number): string {
  const lines: string[] = [];
  for (let i = 1 + rnd(8); i > 0; i--) {
    const words: string[] = [];
    for (let w = 1 + rnd(3); w > 0; w--) words.push(SPAN_LEAVES[rnd(SPAN_LEAVES.length)]!);
    lines.push(PREFIXES[rnd(PREFIXES.length)] + words.join(' '));
  }
  return lines.join('\n');
}

describe('random documents', () => {
  // The same 1,500 documents in three tests of 500: each is rendered twice and neutralised (two
  // more parses), and one test of 1,500 hit the 60 s test timeout in a loaded full unit run.
  it.each([1, 2, 3])('block(): inert, and every span of the source renders with the same text (%i of 3)', (part) => {
    const rnd = generator(23);
    const failures: string[] = [];
    let spans = 0;
    for (let k = 0; k < 1500 && failures.length < 5; k++) {
      const text = randomDocument(rnd);
      if (Math.floor(k / 500) + 1 !== part) continue;
      const source = render(text);
      const html = render(block(text));
      const problems = liveProblems(html);
      // Raw HTML in the source can hide a span a reader never sees as one; compare where it has none.
      const before = /<(?!\/?(?:p|code|pre|ul|ol|li|blockquote|table|thead|tbody|tr|th|td|h1|hr|br)\b)/.test(source)
        ? null
        : spanTexts(source);
      const after = spanTexts(html);
      if (before) spans += before.length;
      if (problems.length || (before && JSON.stringify(before) !== JSON.stringify(after))) {
        failures.push(`${JSON.stringify(text)}: ${problems.join('; ')} ${JSON.stringify([before, after])}`);
      }
    }
    expect(failures).toEqual([]);
    expect(spans).toBeGreaterThan(300); // each part really holds spans
  });

  it('the 60,000 cap never cuts a span in half: what was code is never prose', () => {
    const rnd = generator(29);
    const failures: string[] = [];
    for (let k = 0; k < 800 && failures.length < 5; k++) {
      // As in every comment the action posts, the agent's text follows a first line of its own.
      const text = `## Report\n\n${block(randomDocument(rnd))}`;
      const max = TRUNCATED_SUFFIX.length + 12 + rnd(Math.max(1, text.length));
      if (max >= text.length) continue;
      const html = render(sanitize(text, { maxChars: max })).replace('<h2>Report</h2>', '');
      const problems = liveProblems(html);
      if (problems.length) failures.push(`${JSON.stringify(text)} cut at ${max}: ${problems.join('; ')}`);
    }
    expect(failures).toEqual([]);
  });
});
