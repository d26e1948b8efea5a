// The end of a command's output kept as evidence: its last lines, capped, without trailing blanks.
import { describe, expect, it } from 'vitest';
import { outputTail } from '../../src/commands/output-tail.js';

describe('outputTail', () => {
  it('keeps the last lines, without the blank end', () => {
    expect(outputTail('one\ntwo\nthree\n\n  \t\n', 2)).toBe('two\nthree');
  });

  it('marks a cut to the character cap with an ellipsis', () => {
    expect(outputTail('abcdef\n', 5, 3)).toBe('…def');
  });

  it('handles output with a long run of spaces inside (the PR code writes it)', () => {
    // /\s+$/ was quadratic in such a run (13 s for 200,000 spaces; the output cap is 8 MiB).
    const spaces = ' '.repeat(200_000);
    expect(outputTail(`x${spaces}y\n`, 1)).toBe(`x${spaces}y`);
  });
});
