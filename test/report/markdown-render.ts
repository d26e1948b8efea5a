// Renders markdown with a real CommonMark + GFM parser (micromark) and lists what in the result
// would be live on GitHub: elements the report's own markdown never produces from agent text,
// links, images, GFM alerts and @mentions outside code. Raw HTML is let through
// (allowDangerousHtml), as GitHub would render its safe subset, so a surviving tag shows up.
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

// Built once: building them is most of a small document's render (the fuzz tests render thousands).
const GFM = { extensions: [gfm()], htmlExtensions: [gfmHtml()] };

export function render(markdown: string): string {
  return micromark(markdown, { allowDangerousHtml: true, ...GFM });
}

// What micromark emits for paragraphs, emphasis, code, quotes, lists, tables, strikethrough,
// task lists and hard breaks. Headings, rules, links and images never come from neutralised text.
const STRUCTURE_TAGS = new Set([
  ...['p', 'em', 'strong', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'del', 'input', 'br'],
  ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
]);
const ALERT = /<blockquote>\s*<p>\s*\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]/i;
// GitHub's mention syntax: @ then a login (letters, digits, hyphens), optionally /team.
const MENTION = /(?:^|[^A-Za-z0-9_`])@[A-Za-z0-9][A-Za-z0-9-]*(?:\/[A-Za-z0-9][\w.-]*)?/;
const RICH_LANG = /class="language-(?:mermaid|geojson|topojson|stl|math)\b/i;

const decode = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');

/** Text a reader sees outside code, tags removed and references decoded. */
function proseText(html: string): string {
  const noCode = html.replace(/<pre>[\s\S]*?<\/pre>/g, ' ').replace(/<code>[\s\S]*?<\/code>/g, ' ');
  return decode(noCode.replace(/<[^>]*>/g, ' '));
}

/** Every live construct in rendered HTML, described; empty when the HTML is inert. */
export function liveProblems(html: string, opts: { allowTags?: string[] } = {}): string[] {
  const problems: string[] = [];
  const allowed = new Set([...STRUCTURE_TAGS, ...(opts.allowTags ?? [])]);
  for (const m of html.matchAll(/<\/?([A-Za-z][\w-]*)/g)) {
    if (!allowed.has(m[1]!.toLowerCase())) problems.push(`live <${m[1]}> element: ${snippet(html, m.index)}`);
  }
  if (ALERT.test(html)) problems.push(`GFM alert: ${snippet(html, html.search(ALERT))}`);
  const mention = MENTION.exec(proseText(html));
  if (mention) problems.push(`live mention ${JSON.stringify(mention[0].trim())}`);
  if (RICH_LANG.test(html)) problems.push('a code block GitHub renders as a diagram, map or formula');
  return problems;
}

/** The text content of every code element (inline and block), decoded. */
export function codeTexts(html: string): string[] {
  return [...html.matchAll(/<code(?: class="[^"]*")?>([\s\S]*?)<\/code>/g)].map((m) => decode(m[1]!));
}

function snippet(html: string, at: number): string {
  return JSON.stringify(html.slice(Math.max(0, at - 20), at + 60));
}

/** mulberry32: a small seeded generator, so every run sees the same documents. */
export function generator(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}
