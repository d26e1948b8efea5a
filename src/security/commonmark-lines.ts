// A line-by-line model of CommonMark 0.31.2 block structure (spec §4 leaf blocks, §5 container
// blocks, appendix "A parsing strategy"), with the GFM table rule (GFM spec §4.10). It answers
// one question per line: is this line code (fenced or indented), prose, or blank, and where does
// its content start after the block-quote and list-item markers in front of it?
//
// The neutraliser (neutralise.ts) leaves fenced code verbatim and defuses everything else, so
// this model must agree with a real parser on which lines are fenced code; the tests in
// test/report/neutralise-fuzz.test.ts check it against micromark over a hostile corpus.
// No I/O; one scanner per document.

type LineKind =
  | 'blank'
  | 'paragraph' // paragraph or table text, also a lazy continuation line
  | 'heading' // ATX or setext heading line (commonmark mode only)
  | 'thematic' // thematic break (commonmark mode only)
  | 'html' // HTML block line (commonmark mode only)
  | 'indented' // indented code
  | 'fence-open'
  | 'fenced' // content line of a fenced code block
  | 'fence-close';

export interface LineInfo {
  kind: LineKind;
  /** Index in the original line of the first character of the block's content (past markers and indentation). */
  contentStart: number;
  /**
   * neutralised mode only: the line would be an ATX heading, a setext underline or a thematic
   * break; the neutraliser must break it (it then reads as paragraph text, as modelled here).
   */
  needsBreak: boolean;
}

/**
 * `commonmark`: the text as written. `neutralised`: the text as neutralise.ts will emit it, where
 * no HTML block can start (every `<` before a tag name is defused) and headings, setext underlines
 * and thematic breaks are broken into paragraph text.
 */
export type ScanMode = 'commonmark' | 'neutralised';

type Container = { kind: 'quote' } | { kind: 'item'; width: number; blankStart: boolean; hasContent: boolean };
type Leaf =
  | { kind: 'paragraph'; last: string }
  | { kind: 'table' }
  | { kind: 'indented' }
  | { kind: 'fence'; char: string; length: number }
  | { kind: 'html'; end: RegExp | null }; // null: ends at a blank line (types 6 and 7)

export interface OpenFence {
  /** The opening fence run, e.g. "````" or "~~~". */
  marker: string;
  /** True when the fence sits in no block quote or list item (only then must a closer be written). */
  topLevel: boolean;
}

/** Tabs behave as if expanded to a tab stop of 4 where they define block structure (spec §2.2). */
function expandTabs(line: string): { text: string; origin: number[] } {
  let text = '';
  const origin: number[] = [];
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '\t') {
      const width = 4 - (text.length % 4);
      for (let k = 0; k < width; k++) origin.push(i);
      text += ' '.repeat(width);
    } else {
      origin.push(i);
      text += ch;
    }
  }
  origin.push(line.length);
  return { text, origin };
}

function spaces(s: string, from: number): number {
  let n = 0;
  while (s[from + n] === ' ') n++;
  return n;
}

const isBlankFrom = (s: string, from: number): boolean => /^ *$/.test(s.slice(from));

// §4.5: an opening fence; a backtick fence's info string may not contain a backtick. Only LF and CR
// end a line (§2.1): with `s`, `.` takes U+2028 and U+2029 too, as a renderer's info string does.
// (Without it such a fence went unseen, and retrying each shorter fence was quadratic.)
const FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/s;
// §4.1 thematic break, §4.3 setext underline, §4.2 ATX heading.
const THEMATIC = /^([-*_])(?: *\1){2,} *$/;
const SETEXT = /^(?:=+|-+) *$/;
const ATX = /^#{1,6}(?: |$)/;
// §5.2 list item markers: a bullet, or 1–9 digits and `.` or `)`, then a space or the line end.
const LIST_MARKER = /^(?:([-+*])|(\d{1,9})[.)])(?= |$)/;
// GFM §4.10: the delimiter row of a table.
// The same rows as `\|? *$` at the end, but the last cell's spaces and the trailing ones can no
// longer split a long run of spaces every way (quadratic on a row that fails after them).
const TABLE_DELIMITER = /^\|? *:?-+:? *(?:\| *:?-+:? *)*(?:\| *)?$/;

// §4.6 HTML block start conditions 1–7 and their end conditions.
const HTML_BLOCK_NAMES =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|' +
  'fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|' +
  'main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|' +
  'title|tr|track|ul';
// §6.6: an open tag with its attributes, and a closing tag (HTML block type 7).
const OPEN_TAG = `<[A-Za-z][A-Za-z0-9-]*(?: +[A-Za-z_:][\\w.:-]*(?: *= *(?:[^ "'=<>\`]+|'[^']*'|"[^"]*"))?)* *\\/?>`;
const CLOSING_TAG = '<\\/[A-Za-z][A-Za-z0-9-]* *>';
const HTML_STARTS: { start: RegExp; end: RegExp | null; interrupts: boolean }[] = [
  { start: /^<(?:pre|script|style|textarea)(?:[ >]|$)/i, end: /<\/(?:pre|script|style|textarea)>/i, interrupts: true },
  { start: /^<!--/, end: /-->/, interrupts: true },
  { start: /^<\?/, end: /\?>/, interrupts: true },
  { start: /^<![A-Za-z]/, end: />/, interrupts: true },
  { start: /^<!\[CDATA\[/, end: /\]\]>/, interrupts: true },
  { start: new RegExp(`^</?(?:${HTML_BLOCK_NAMES})(?: |/?>|$)`, 'i'), end: null, interrupts: true },
  { start: new RegExp(`^(?:${OPEN_TAG}|${CLOSING_TAG}) *$`), end: null, interrupts: false },
];

export class BlockScanner {
  private containers: Container[] = [];
  private leaf: Leaf | null = null;

  constructor(private readonly mode: ScanMode = 'commonmark') {}

  /** The fenced code block still open after the lines seen so far, if any. */
  openFence(): OpenFence | null {
    if (this.leaf?.kind !== 'fence') return null;
    return { marker: this.leaf.char.repeat(this.leaf.length), topLevel: this.containers.length === 0 };
  }

  next(line: string): LineInfo {
    const { text, origin } = expandTabs(line);
    const info = this.scan(text);
    if (info.kind !== 'blank') for (const c of this.containers) if (c.kind === 'item') c.hasContent = true;
    return { ...info, contentStart: origin[Math.min(info.contentStart, origin.length - 1)]! };
  }

  private scan(e: string): LineInfo {
    let pos = 0;
    let matched = 0;
    // 1. Which open containers does this line continue (§5.1 block quote marker, §5.2 indentation)?
    for (const c of this.containers) {
      if (c.kind === 'quote') {
        const ind = spaces(e, pos);
        if (ind > 3 || e[pos + ind] !== '>') break;
        pos += ind + 1;
        if (e[pos] === ' ') pos++;
      } else if (isBlankFrom(e, pos)) {
        // A list item can begin with at most one blank line.
        if (c.blankStart && !c.hasContent) break;
      } else {
        if (spaces(e, pos) < c.width) break;
        pos += c.width;
      }
      matched++;
    }

    if (matched < this.containers.length) {
      // Lazy continuation (§5.1): only paragraph text continues past unmatched containers.
      if (this.leaf?.kind === 'paragraph' && !isBlankFrom(e, pos) && !this.startsBlock(e, pos)) {
        const at = pos + spaces(e, pos);
        return this.paragraph(e, at, this.mode === 'neutralised' && breaksAsLeaf(e.slice(at), true), true);
      }
      this.containers.length = matched;
      this.leaf = null;
      return this.openBlocks(e, pos, false);
    }
    const before = this.leaf?.kind;
    const cont = this.continueLeaf(e, pos);
    if (cont) return cont;
    return this.openBlocks(e, pos, before === 'paragraph' || before === 'table' || before === 'indented');
  }

  /** The open leaf block takes the line, or null when the line starts something new. */
  private continueLeaf(e: string, pos: number): LineInfo | null {
    const leaf = this.leaf;
    const at = pos + spaces(e, pos);
    if (leaf?.kind === 'fence') {
      // §4.5: a closing fence is the same character, at least as long, indented at most 3, no info string.
      const close = e.slice(pos);
      const m = /^( {0,3})(`{3,}|~{3,}) *$/.exec(close);
      if (m && m[2]![0] === leaf.char && m[2]!.length >= leaf.length) {
        this.leaf = null;
        return line('fence-close', at);
      }
      return line('fenced', at);
    }
    if (leaf?.kind === 'indented') {
      if (isBlankFrom(e, pos) || spaces(e, pos) >= 4) return line('indented', Math.min(pos + 4, e.length));
      this.leaf = null;
    }
    if (leaf?.kind === 'html') {
      if (leaf.end === null) {
        if (isBlankFrom(e, pos)) {
          this.leaf = null;
          return line('blank', e.length);
        }
        return line('html', at);
      }
      if (leaf.end.test(e.slice(pos))) this.leaf = null;
      return line('html', at);
    }
    return null;
  }

  /**
   * `interrupting`: the line follows text or code in the same container. Parsers disagree on
   * which list items may start there (cmark tests the innermost matched block, micromark also
   * counts indented code and items nested on the same line), so in neutralised mode such a
   * doubtful item is broken into text, which every parser reads alike.
   */
  private openBlocks(e: string, start: number, interrupting: boolean): LineInfo {
    let pos = start;
    for (;;) {
      const ind = spaces(e, pos);
      const at = pos + ind;
      const rest = e.slice(at);
      if (rest === '') {
        this.leaf = null;
        return line('blank', e.length);
      }
      const inParagraph = this.leaf?.kind === 'paragraph';
      if (ind >= 4) {
        // §4.4: indented code cannot interrupt a paragraph.
        if (inParagraph || this.leaf?.kind === 'table') return this.paragraph(e, at, false);
        this.leaf = { kind: 'indented' };
        return line('indented', Math.min(pos + 4, e.length));
      }
      if (rest[0] === '>') {
        this.containers.push({ kind: 'quote' });
        this.leaf = null;
        pos = at + 1;
        if (e[pos] === ' ') pos++;
        continue;
      }
      const leafLine = this.leafLine(e, at, rest, inParagraph);
      if (leafLine) return leafLine;
      const item = this.listItem(e, pos, at, rest, inParagraph, interrupting);
      if (item === 'break') return this.paragraph(e, at, true);
      if (item !== null) {
        pos = item;
        continue;
      }
      const fence = FENCE_OPEN.exec(rest);
      if (fence && !(fence[1]![0] === '`' && fence[2]!.includes('`'))) {
        this.leaf = { kind: 'fence', char: fence[1]![0]!, length: fence[1]!.length };
        return line('fence-open', at);
      }
      if (this.mode === 'commonmark') {
        const html = HTML_STARTS.find((h) => h.start.test(rest) && (h.interrupts || !inParagraph));
        if (html) {
          this.leaf = html.end && html.end.test(rest) ? null : { kind: 'html', end: html.end };
          return line('html', at);
        }
      }
      return this.paragraph(e, at, false);
    }
  }

  /** Headings, setext underlines and thematic breaks: real in commonmark mode, broken text when neutralised. */
  private leafLine(e: string, at: number, rest: string, inParagraph: boolean): LineInfo | null {
    // Neutralised text breaks every underline-like line, whatever the paragraph state.
    if (!breaksAsLeaf(rest, inParagraph || this.mode === 'neutralised')) return null;
    if (this.mode === 'neutralised') return this.paragraph(e, at, true);
    this.leaf = null;
    return line(THEMATIC.test(rest) && !(inParagraph && SETEXT.test(rest)) ? 'thematic' : 'heading', at);
  }

  /** §5.2: opens a list item and returns where its content starts, or null. */
  private listItem(
    e: string,
    pos: number,
    at: number,
    rest: string,
    inParagraph: boolean,
    interrupting: boolean,
  ): number | null | 'break' {
    const m = LIST_MARKER.exec(rest);
    if (!m) return null;
    const markerWidth = m[0].length;
    const after = at + markerWidth;
    const empty = isBlankFrom(e, after);
    // §5.2: to interrupt a paragraph an item must not start blank, and an ordered one must start at 1.
    const restricted = empty || (m[2] !== undefined && Number(m[2]) !== 1);
    if (restricted && this.mode === 'neutralised' && (inParagraph || interrupting)) return 'break';
    if (restricted && inParagraph) return null;
    const gap = spaces(e, after);
    // One to four spaces after the marker set the content column; five or more mean indented code.
    const n = empty || gap >= 5 ? 1 : gap;
    this.containers.push({ kind: 'item', width: at - pos + markerWidth + n, blankStart: empty, hasContent: false });
    this.leaf = null;
    return empty ? e.length : after + n;
  }

  /** A paragraph line; `lazy` (§5.1 laziness) lines cannot be a table's delimiter row. */
  private paragraph(e: string, at: number, needsBreak: boolean, lazy = false): LineInfo {
    const leaf = this.leaf;
    if (leaf?.kind === 'paragraph') {
      // GFM §4.10: a delimiter row makes the paragraph's last line a table header.
      if (!lazy && isDelimiterRow(e.slice(at), leaf.last)) this.leaf = { kind: 'table' };
      else leaf.last = e.slice(at);
    } else if (leaf?.kind !== 'table') {
      this.leaf = { kind: 'paragraph', last: e.slice(at) };
    }
    return { kind: 'paragraph', contentStart: at, needsBreak };
  }

  /**
   * Whether text past unmatched containers starts a block, so it cannot be a lazy continuation.
   * The paragraph is not the innermost matched block here, so a list item may start with any
   * number or empty (the paragraph rules of §5.2 apply to the matched block; commonmark.js and
   * cmark test `container.type === paragraph`).
   */
  private startsBlock(e: string, pos: number): boolean {
    const ind = spaces(e, pos);
    if (ind >= 4) return false;
    const rest = e.slice(pos + ind);
    if (rest[0] === '>') return true;
    const fence = FENCE_OPEN.exec(rest);
    if (fence && !(fence[1]![0] === '`' && fence[2]!.includes('`'))) return true;
    // Broken into text by the neutraliser, so a lazy line of the paragraph.
    if (this.mode === 'neutralised') return !breaksAsLeaf(rest, true) && LIST_MARKER.test(rest);
    if (THEMATIC.test(rest) || LIST_MARKER.test(rest) || ATX.test(rest)) return true;
    return HTML_STARTS.some((h) => h.start.test(rest));
  }
}

/** An ATX heading, a thematic break, or (under a paragraph) a setext underline. */
function breaksAsLeaf(rest: string, inParagraph: boolean): boolean {
  return ATX.test(rest) || THEMATIC.test(rest) || (inParagraph && SETEXT.test(rest));
}

/** GFM §4.10: a delimiter row with a pipe and as many cells as the header row above it. */
function isDelimiterRow(row: string, header: string): boolean {
  return row.includes('|') && TABLE_DELIMITER.test(row) && tableCells(row) === tableCells(header);
}

function tableCells(row: string): number {
  const inner = row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).length;
}

function line(kind: LineKind, contentStart: number): LineInfo {
  return { kind, contentStart, needsBreak: false };
}

/** Splits text into lines the way CommonMark does (§2.1: LF, CR LF or CR end a line). */
export function markdownLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}
