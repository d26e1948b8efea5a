import { describe, expect, it } from 'vitest';
import { codeNames } from '../../src/review/code-names.js';

describe('codeNames', () => {
  it('reads dotted, camelCase and snake_case names, calls and quoted code', () => {
    const text = 'Calls `parseCharset` with params.length; my_var and getX() differ from readFile.';
    expect([...codeNames(text)].sort()).toEqual(['getx', 'my_var', 'params.length', 'parsecharset', 'readfile']);
  });

  it('reads the names around a 200,000-character word', () => {
    // Such a word, followed by neither "." nor "(", was once read again from each of its
    // characters (quadratic); a blocked event loop fires no timeout, so the result is checked.
    const word = 'x'.repeat(200_000);
    const dollars = 'a$'.repeat(100_000);
    expect([...codeNames(`a.b ${word} fooBar ${dollars} c_d`)].sort()).toEqual(['a.b', 'c_d', 'foobar']);
  });

  it('keeps a name whose parts are at most 101 characters whole', () => {
    const part = `a${'b'.repeat(100)}`;
    expect([...codeNames(`${part}.${part}(x)`)]).toEqual([`${part}.${part}`]);
  });
});
