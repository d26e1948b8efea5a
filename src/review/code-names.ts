// The code names a finding's text mentions: what two reviewers share when they describe one
// problem in their own words. Real models quote code in backticks (`var i`, `{ i: i }`) and name
// functions and fields bare (parseCharset, params.length, add()); both count, lower-cased, so
// "`parseCharset`" and "parseCharset" are one name.

const BACKTICKED = /`([^`\n]{1,80})`/g;
// a.b.c, camelCase, snake_case, and a name followed by "(". The first and last forms read a name's
// first part at most 100 characters long: unbounded, a long word followed by neither "." nor "("
// is read again from each of its characters (quadratic). A name with a longer part may be cut.
const BARE =
  /[A-Za-z_$][\w$]{0,100}(?:\.[A-Za-z_$][\w$]*)+|\b[a-z]+[A-Z][\w$]*|\b\w+_\w+|\b[A-Za-z_$][\w$]{0,100}(?=\()/g;

/** The distinct code names in `text`, lower-cased, whitespace inside a quote collapsed. */
export function codeNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(BACKTICKED)) names.add(m[1]!.trim().replace(/\s+/g, ' ').toLowerCase());
  for (const m of text.matchAll(BARE)) names.add(m[0].toLowerCase());
  names.delete('');
  return names;
}

export function sharedCount(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  // Called millions of times when grouping thousands of findings: no allocation here.
  if (a.size > b.size) return sharedCount(b, a);
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
}
