// The end of an output kept as evidence (verify results, a confirmer's test, a CI job's log): its
// last lines, and at most `chars` characters of them, a cut marked with "…".
export function outputTail(text: string, lines: number, chars = Number.POSITIVE_INFINITY): string {
  // trimEnd, not /\s+$/: the PR's code writes this output, and the regex is quadratic in a run of
  // spaces something other than the end follows (200,000 took 13 s).
  const last = text.trimEnd().split('\n').slice(-lines).join('\n');
  return last.length > chars ? `…${last.slice(-chars)}` : last;
}
