// The XML of a registry configuration (Maven's settings.xml, NuGet.Config), read in linear time:
// a setup command writes these files. The lazy regexes this replaces read on to the end of the
// text from every unclosed comment or tag (`<!--[\s\S]*?-->`, `<name(\s[^>]*)?>[\s\S]*?</name\s*>`):
// 3 to 14 s on 256 KiB. Each function finds exactly what its regex found; every search for a `>`
// or a closing tag goes on from where the last one stopped.
import { forwardSearch } from '../security/forward-search.js';

/** What `\s` matches. */
const SPACE = /\s/;

/** `text` without its comments, as text.replace(/<!--[\s\S]*?-->/g, '') does. */
export function withoutComments(text: string): string {
  let out = '';
  let copied = 0;
  for (let at = text.indexOf('<!--'); at >= 0; at = text.indexOf('<!--', copied)) {
    const close = text.indexOf('-->', at + 4);
    // An unclosed comment: no later `<!--` has a `-->` after it either.
    if (close < 0) break;
    out += text.slice(copied, at);
    copied = close + 3;
  }
  return out + text.slice(copied);
}

/** The first `<name>` or `<name …>`, as new RegExp(`<${name}(\\s[^>]*)?>`).exec(text)?.[0]. */
export function openingTag(text: string, name: string): string | undefined {
  const after = name.length + 1;
  for (let at = text.indexOf(`<${name}`); at >= 0; at = text.indexOf(`<${name}`, at + 1)) {
    const next = text[at + after];
    if (next === '>') return text.slice(at, at + after + 1);
    if (next !== undefined && SPACE.test(next)) {
      // No `>` after this one: none after any later one either.
      const gt = text.indexOf('>', at + after);
      return gt < 0 ? undefined : text.slice(at, gt + 1);
    }
  }
  return undefined;
}

/**
 * Each element `name` of `text`: the matches of
 * new RegExp(`<${name}(\\s[^>]*)?>[\\s\\S]*?</${name}\\s*>|<${name}(\\s[^>]*)?/>`, 'g').
 */
export function elements(text: string, name: string): string[] {
  return spans(text, name, true).map(([start, end]) => text.slice(start, end));
}

/**
 * `text` without each element `name` that has a closing tag, in any case, as
 * text.replace(new RegExp(`<${name}(\\s[^>]*)?>[\\s\\S]*?</${name}\\s*>`, 'gi'), '') does.
 */
export function withoutElements(text: string, name: string): string {
  // Without the `u` flag, `i` folds no other character onto an ASCII letter: lowering only
  // those keeps every index, and the regex matched where the lowered text matches the lowered name.
  const lower = text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  let out = '';
  let copied = 0;
  for (const [start, end] of spans(lower, name.toLowerCase(), false)) {
    out += text.slice(copied, start);
    copied = end;
  }
  return out + text.slice(copied);
}

/** [start, end) of each match of the regex of elements(), without `selfClosing` of its first half. */
function spans(text: string, name: string, selfClosing: boolean): [number, number][] {
  const nextGt = forwardSearch((from) => text.indexOf('>', from));
  const nextClose = forwardSearch((from) => closingTag(text, name, from));
  const after = name.length + 1;
  const found: [number, number][] = [];
  let at = text.indexOf(`<${name}`);
  while (at >= 0) {
    const next = text[at + after];
    const tagged = next === '>' || (next !== undefined && SPACE.test(next));
    // `(\s[^>]*)?>`: the opening tag runs to the first `>`.
    const gt = tagged ? nextGt(at + after) : -1;
    const close = gt < 0 ? -1 : nextClose(gt + 1);
    let end = -1;
    if (close >= 0) end = closingTagEnd(text, close + after + 1);
    else if (selfClosing && next === '/' && text[at + after + 1] === '>') end = at + after + 2;
    else if (selfClosing && next !== '>' && gt > at + after + 1 && text[gt - 1] === '/') end = gt + 1;
    if (end >= 0) found.push([at, end]);
    at = text.indexOf(`<${name}`, end >= 0 ? end : at + 1);
  }
  return found;
}

/** The first `</name\s*>` at or after `from`: where it starts, -1 if none. */
function closingTag(text: string, name: string, from: number): number {
  for (let at = text.indexOf(`</${name}`, from); at >= 0; at = text.indexOf(`</${name}`, at + 1)) {
    if (closingTagEnd(text, at + name.length + 2) >= 0) return at;
  }
  return -1;
}

/** After `</name`: the end of `\s*>`, -1 if it is not there. */
function closingTagEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length && SPACE.test(text[at]!)) at++;
  return text[at] === '>' ? at + 1 : -1;
}

/**
 * `text` without each element that `flagged` says holds a credential, with all it holds: by its
 * name (`<gpg.passphrase>`), by a `key` attribute's value (NuGet's `<add key="…Password" …/>`),
 * or by another attribute's name. Null when one has no end (an unclosed tag or value, a
 * credential element never closed, a closing tag of one left over): where its secret ends cannot
 * be told. Each tag is read once, quotes and all, and the scan goes on after it (or after the
 * element it dropped), so the text is read once.
 */
export function withoutFlaggedElements(text: string, flagged: (name: string) => boolean): string | null {
  let out = '';
  let copied = 0;
  let at = text.indexOf('<');
  while (at >= 0) {
    if (text[at + 1] === '/') {
      const name = nameAt(text, at + 2);
      // A credential's closing tag outside any element dropped: its opening tag was nested in
      // one of the same name, or misspelt, so what it closed may still be here.
      if (name !== '' && flagged(name)) return null;
      at = text.indexOf('<', at + 1);
      continue;
    }
    const name = nameAt(text, at + 1);
    if (name === '' || name[0] === '!' || name[0] === '?') {
      at = text.indexOf('<', at + 1);
      continue;
    }
    const tag = readTag(text, at + 1 + name.length, flagged);
    if (tag === null) return null;
    let end = tag.end;
    if (tag.flagged || flagged(name)) {
      if (!tag.selfClosing) {
        const close = closingTagAfter(text, name, tag.end);
        if (close < 0) return null;
        end = close;
      }
      out += text.slice(copied, at);
      copied = end;
    }
    at = text.indexOf('<', end);
  }
  return out + text.slice(copied);
}

/** What ends a tag's or an attribute's name. */
const NAME_END = /[\s/>="'<]/;

/** The name that starts at `from`: up to a blank, `/`, `>`, `=`, a quote or `<`. */
function nameAt(text: string, from: number): string {
  let end = from;
  while (end < text.length && !NAME_END.test(text[end]!)) end++;
  return text.slice(from, end);
}

/**
 * The rest of a tag after its name: where it ends (after its `>`, not one inside a quoted value),
 * whether it closes itself, whether an attribute is a credential's. Null when it never ends.
 */
function readTag(
  text: string,
  from: number,
  flagged: (name: string) => boolean,
): { end: number; selfClosing: boolean; flagged: boolean } | null {
  let found = false;
  let at = from;
  while (at < text.length) {
    const c = text[at]!;
    if (c === '>') return { end: at + 1, selfClosing: text[at - 1] === '/', flagged: found };
    if (SPACE.test(c) || c === '/' || c === '=') {
      at++;
      continue;
    }
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, at + 1);
      if (close < 0) return null;
      at = close + 1;
      continue;
    }
    const attribute = nameAt(text, at);
    at += Math.max(1, attribute.length);
    while (at < text.length && SPACE.test(text[at]!)) at++;
    if (text[at] !== '=') {
      if (flagged(attribute)) found = true;
      continue;
    }
    at++;
    while (at < text.length && SPACE.test(text[at]!)) at++;
    const quote = text[at];
    let value: string;
    if (quote === '"' || quote === "'") {
      const close = text.indexOf(quote, at + 1);
      if (close < 0) return null;
      value = text.slice(at + 1, close);
      at = close + 1;
    } else {
      value = nameAt(text, at);
      at += value.length;
    }
    // NuGet names each setting in `key` (`<add key="ClearTextPassword" value="…"/>`).
    if (attribute.toLowerCase() === 'key' ? flagged(value) : flagged(attribute)) found = true;
  }
  return null;
}

/** After `from`, the end of the first `</name\s*>`, -1 if there is none. */
function closingTagAfter(text: string, name: string, from: number): number {
  const at = closingTag(text, name, from);
  return at < 0 ? -1 : closingTagEnd(text, at + name.length + 2);
}
