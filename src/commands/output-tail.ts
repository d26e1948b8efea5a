// The end of an output kept as evidence (verify results, a confirmer's test, a CI job's log): its
// last lines, and at most `chars` characters of them, a cut marked with "…".
export function outputTail(text: string, lines: number, chars = Number.POSITIVE_INFINITY): string {
  const last = text.replace(/\s+$/, '').split('\n').slice(-lines).join('\n');
  return last.length > chars ? `…${last.slice(-chars)}` : last;
}
