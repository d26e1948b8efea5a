// Docs checked like code: every path of this repository that a comment or a page names must exist,
// and every relative link of a page must lead to a file and, with a #fragment, to a heading of it.
// A file moved without its citations, or a heading renamed under its links, fails here.
// Read: the comments of src/, test/, scripts/ and the root's config files (code itself is checked by
// the compiler), and all of docs/, README, CONTRIBUTING, SECURITY, CHANGELOG and examples/README.md.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TOP_FOLDERS = ['src', 'test', 'docs', 'scripts', 'prompts', 'examples'];
const CODE = /\.(ts|mjs|cjs|js)$/;

/**
 * Paths that name no file of this repository on purpose: a user's repository in an example, or a
 * test's own fixture. Each with the one file it may appear in.
 */
const NOT_OURS: Record<string, string[]> = {
  'docs/how-a-run-goes.md': ['src/math.js'], // the demo PR's file
  'docs/security.md': ['src/.env', 'src/env.txt'], // what a red-team verify command did
  'src/sandbox/access.ts': ['src/.env'],
  'src/review/dir-rules.ts': ['src/api/REVIEW.md'],
  'test/git/replace-refs.test.ts': ['src/math.js'], // the test repository's file
  'test/sandbox/earlier-step-rename.test.ts': ['src/.env', 'src/env.txt'],
  'test/e2e/dir-rules.test.ts': ['src/REVIEW.md', 'docs/REVIEW.md'],
  'test/fakes/github/README.md': ['src/a.ts'],
};

function walk(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.name === 'node_modules' || rel === 'test/fixtures') return [];
    return e.isDirectory() ? walk(rel) : [rel];
  });
}

const CODE_FILES = ['src', 'test', 'scripts']
  .flatMap(walk)
  .filter((f) => CODE.test(f))
  .concat(readdirSync(ROOT).filter((f) => /\.(mjs|ts)$/.test(f)));
const PAGES = [
  ...walk('docs'),
  ...walk('test').filter((f) => f.endsWith('.md')),
  'README.md',
  'CONTRIBUTING.md',
  'SECURITY.md',
  'CHANGELOG.md',
  'examples/README.md',
].filter((f) => f.endsWith('.md'));

/** The comment text of each line of a source file (whole-line, block and trailing comments). */
export function commentLines(text: string): { line: number; text: string }[] {
  let inBlock = false;
  return text.split('\n').flatMap((raw, i) => {
    const line = raw.trim();
    if (inBlock) {
      inBlock = !line.includes('*/');
      return [{ line: i + 1, text: line }];
    }
    if (line.startsWith('/*')) {
      inBlock = !line.includes('*/', 2);
      return [{ line: i + 1, text: line }];
    }
    if (line.startsWith('//')) return [{ line: i + 1, text: line }];
    // A trailing comment: `//` after code, outside any string of the line.
    const at = trailingComment(raw);
    return at < 0 ? [] : [{ line: i + 1, text: raw.slice(at) }];
  });
}

function trailingComment(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '/' && line[i + 1] === '/' && (i === 0 || /\s/.test(line[i - 1]!))) return i;
    else if (c === '/' && line[i + 1] !== '/') return -1; // a regular expression or a division: stop
  }
  return -1;
}

/** Repository paths named in a text: a top folder, a slash, and more; globs and placeholders skipped. */
export function namedPaths(text: string): string[] {
  const folders = TOP_FOLDERS.join('|');
  const re = new RegExp(`(?<![\\w./@-])(?:${folders})/[\\w./@-]*[\\w]`, 'g');
  return [...text.matchAll(re)].filter((m) => !/^[*{<[]/.test(text.slice(m.index + m[0].length))).map((m) => m[0]);
}

/** A named path resolves to a file or folder; a module named by its `.js` import name counts. */
function resolves(p: string): boolean {
  return (
    existsSync(path.join(ROOT, p)) || (p.endsWith('.js') && existsSync(path.join(ROOT, p.replace(/\.js$/, '.ts'))))
  );
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = anchor(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function unresolvedIn(file: string, texts: { line: number; text: string }[]): string[] {
  const allowed = NOT_OURS[file] ?? [];
  return texts.flatMap(({ line, text }) =>
    namedPaths(text)
      .filter((p) => !resolves(p) && !allowed.includes(p))
      .map((p) => `${file}:${line} ${p}`),
  );
}

describe('every path a comment or a page names exists', () => {
  it('in the comments of the code', () => {
    expect(CODE_FILES.length).toBeGreaterThan(300);
    const missing = CODE_FILES.flatMap((f) => unresolvedIn(f, commentLines(readFileSync(path.join(ROOT, f), 'utf8'))));
    expect(missing).toEqual([]);
  });

  it('in the pages', () => {
    const missing = PAGES.flatMap((f) =>
      unresolvedIn(
        f,
        readFileSync(path.join(ROOT, f), 'utf8')
          .split('\n')
          .map((text, i) => ({ line: i + 1, text })),
      ),
    );
    expect(missing).toEqual([]);
  });

  it('in the relative links of the pages, to a file and a heading', () => {
    const broken: string[] = [];
    for (const file of PAGES) {
      const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [where, fragment] = target.split('#');
        const to = where ? path.normalize(path.join(path.dirname(file), where)) : file;
        if (!existsSync(path.join(ROOT, to))) broken.push(`${file}: ${target} (no ${to})`);
        else if (fragment && statSync(path.join(ROOT, to)).isFile() && to.endsWith('.md')) {
          if (!anchorsOf(to).has(fragment)) broken.push(`${file}: ${target} (no heading #${fragment} in ${to})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

/** Files of a user's repository the action reads by these names (and the test fixtures' copies). */
const USER_FILES = ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md', 'REVIEW.md'];

it('every Markdown file a comment cites by name is a file of this repository', () => {
  const ours = new Set(walkAll('.').map((f) => path.basename(f)));
  const cited = CODE_FILES.flatMap((f) =>
    commentLines(readFileSync(path.join(ROOT, f), 'utf8')).flatMap(({ line, text }) =>
      [...text.matchAll(/(?<![\w/.-])([\w.-]+\.md)\b/g)].map((m) => ({ where: `${f}:${line}`, name: m[1]! })),
    ),
  );
  expect(cited.length).toBeGreaterThan(10);
  const missing = cited.filter(({ name }) => !ours.has(name) && !USER_FILES.includes(name));
  expect(missing.map(({ where, name }) => `${where} ${name}`)).toEqual([]);
});

function walkAll(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === '.git' || e.name === '.cache') return [];
    const rel = `${dir}/${e.name}`;
    return e.isDirectory() ? walkAll(rel) : [rel];
  });
}

describe('the checks see what they look for', () => {
  it('finds paths in comments, not in code or strings, and skips globs and placeholders', () => {
    const src = [
      "import { x } from '../src/nowhere.js'; // see src/gone.ts",
      "const p = 'src/in-a-string.ts';",
      '/**',
      ' * Moved to test/unit/moved.test.ts.',
      ' */',
      '// docs/*.md and src/<name>.ts are patterns',
    ].join('\n');
    const found = commentLines(src).flatMap((c) => namedPaths(c.text));
    expect(found).toEqual(['src/gone.ts', 'test/unit/moved.test.ts']);
  });

  it('makes GitHub’s anchors', () => {
    expect(anchor('Threats found on real runners and real models, and what answers them')).toBe(
      'threats-found-on-real-runners-and-real-models-and-what-answers-them',
    );
    expect(anchor('The `/review-loop` comment')).toBe('the-review-loop-comment');
  });
});
