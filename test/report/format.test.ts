import { describe, expect, it } from 'vitest';
import { block, code, fenced, fmtCost, fmtDuration, inline } from '../../src/report/format.js';

describe('text helpers', () => {
  it('inline() makes one safe line and caps its length', () => {
    expect(inline('a\nb | c')).toBe('a b \\| c');
    expect(inline('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(inline('<script> @bob')).toBe('<\u200bscript> @\u200bbob');
  });

  it('code() survives backticks and pipes', () => {
    expect(code('npm test')).toBe('`npm test`');
    // In prose a pipe in code needs nothing; table() escapes it in a cell (neutralise.test.ts).
    expect(code('echo `date` | tee')).toBe('``echo `date` | tee``');
    expect(code('`x`')).toBe('`` `x` ``');
  });

  it('fenced() uses a fence longer than any in the content', () => {
    expect(fenced('a\n````\nb', 'text')).toBe('`````text\na\n````\nb\n`````');
  });

  it('block() leaves fenced code alone and closes an open fence', () => {
    expect(block('# h\n```\n# kept @x\n')).toBe('\u200b# h\n```\n# kept @x\n```');
    expect(block('title\n---')).toBe('title\n\u200b---');
  });

  it('fenced() and block() trim the end of text with long runs of newlines or spaces inside', () => {
    // Regexes like /\n+$/ and /\s+$/ were quadratic in such a run (14 s for 200,000); the trimmed
    // text is what a test can check, since a blocked event loop fires no timeout.
    const run = '\n'.repeat(200_000);
    expect(fenced(`a${run}b\n\n`, 'text')).toBe(`\`\`\`text\na${run}b\n\`\`\``);
    const spaces = ' '.repeat(200_000);
    expect(block(`a${spaces}b \n\t `)).toBe(`a${spaces}b`);
  });

  it('formats durations and costs', () => {
    expect(fmtDuration(850)).toBe('850 ms');
    expect(fmtDuration(12_340)).toBe('12.3 s');
    expect(fmtDuration(125_000)).toBe('2m 05s');
    expect(fmtCost(null)).toBe('—');
    expect(fmtCost(0.004)).toBe('$0.0040');
    expect(fmtCost(1.5)).toBe('$1.50');
  });
});
