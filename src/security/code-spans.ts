// Where a real CommonMark + GFM parser (micromark, the parser the tests render with) sees inline
// code in a piece of markdown. Nothing inside a code span is live on GitHub (CommonMark §6.1: no
// HTML, no link, no entity; GitHub links no @mention in code), so the neutraliser can leave a
// span's text exactly as the agent wrote it, if it knows where spans are. Which backticks pair up
// depends on the whole paragraph, table cells and raw HTML around them (§6.1, GFM §4.10), so it
// is read from the parser's events rather than guessed line by line. No I/O.
import { parse, postprocess, preprocess } from 'micromark';
import { gfm } from 'micromark-extension-gfm';

/** A code span, backtick runs included: `text.slice(start, end)`. */
export interface CodeSpan {
  start: number;
  end: number;
}

// Built once: building the GFM syntax extension took as long as parsing a short text.
const GFM = [gfm()];

/** Every code span of the document, in order; offsets index the string as given. */
export function codeSpans(markdown: string): CodeSpan[] {
  if (!markdown.includes('`')) return []; // most text has none: no parse
  const chunks = preprocess()(markdown, undefined, true);
  const events = postprocess(parse({ extensions: GFM }).document().write(chunks));
  const spans: CodeSpan[] = [];
  for (const [kind, token] of events) {
    if (kind === 'enter' && token.type === 'codeText') spans.push({ start: token.start.offset, end: token.end.offset });
  }
  return spans;
}

/** The span that `at` falls strictly inside (after its first character), if any. */
export function spanAround(spans: readonly CodeSpan[], at: number): CodeSpan | null {
  return spans.find((s) => s.start < at && at < s.end) ?? null;
}
