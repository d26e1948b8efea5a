// A search that a scan repeats from later and later places: the quadratic regexes replaced by
// linear scans (strip-credentials.ts, pem-blocks.ts) read on to the end of the text from every
// place they were tried, and ran many times on text others write.

/**
 * `find` (the first index at or after `from` where something fixed in the text is, -1 if none),
 * remembering its last answer: a call from anywhere between the last call's `from` and that answer
 * has the same answer, so calls from growing places read the text once between them all.
 */
export function forwardSearch(find: (from: number) => number): (from: number) => number {
  let lastFrom = Number.POSITIVE_INFINITY;
  let lastAt = -1;
  return (from) => {
    if (from >= lastFrom && (lastAt < 0 || from <= lastAt)) return lastAt;
    lastFrom = from;
    lastAt = find(from);
    return lastAt;
  };
}

/** The first index at or after `from` of a character `re` (global) matches, else text.length. */
export function firstMatchAt(re: RegExp, text: string, from: number): number {
  re.lastIndex = from;
  return re.exec(text)?.index ?? text.length;
}
