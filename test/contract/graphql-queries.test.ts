// Every GraphQL query in src/ must be valid against GitHub's published schema: a typo in a
// field name fails here, not on a user's PR.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { githubSchema } from '../fakes/github/index.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

interface FoundQuery {
  file: string;
  name: string;
  text: string;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/**
 * Exported consts named `…QUERY`, and any const whose template literal is tagged with a
 * `/* GraphQL *\/` comment. Interpolation (`${…}`) is reported, since it cannot be validated.
 */
function findQueries(source: string, file: string): FoundQuery[] {
  const found: FoundQuery[] = [];
  const re = /(export\s+)?const\s+(\w+)\s*(?::[^=]+)?=\s*(\/\*\s*GraphQL\s*\*\/\s*)?`((?:\\`|[^`])*)`/g;
  for (const m of source.matchAll(re)) {
    const [, exported, name = '', tag, text = ''] = m;
    if ((exported && name.endsWith('QUERY')) || tag) found.push({ file, name, text });
  }
  return found;
}

function errorsOf(query: string): string[] {
  if (query.includes('${')) return ['query uses ${…} interpolation; keep GraphQL queries static'];
  try {
    return validate(githubSchema(), parse(query)).map((e) => e.message);
  } catch (e) {
    return [(e as Error).message];
  }
}

const queries = tsFiles(SRC).flatMap((f) => findQueries(readFileSync(f, 'utf8'), path.relative(SRC, f)));

describe("GraphQL queries in src/ against GitHub's schema", () => {
  it('the checker accepts a known-good query and rejects a known-bad one', () => {
    const good =
      'query($o:String!,$n:String!){ repository(owner:$o,name:$n){ pullRequest(number:1){ reviewThreads(first:1){ nodes{ id isResolved } } } } }';
    const bad =
      'query($o:String!,$n:String!){ repository(owner:$o,name:$n){ pullRequest(number:1){ reviewThreads(first:1){ nodes{ id resolved } } } } }';
    expect(errorsOf(good)).toEqual([]);
    expect(errorsOf(bad).join('\n')).toMatch(/Cannot query field "resolved" on type "PullRequestReviewThread"/);
    expect(errorsOf('query { repository(').length).toBeGreaterThan(0);
  });

  it('the scanner finds exported …QUERY consts and /* GraphQL */-tagged literals', () => {
    const src =
      'export const A_QUERY = `query { viewer { login } }`;\nconst b = /* GraphQL */ `query { viewer { login } }`;\nexport const NOT_ONE = `x`;';
    expect(findQueries(src, 'x.ts').map((q) => q.name)).toEqual(['A_QUERY', 'b']);
  });

  it('finds the queries once src/github/threads.ts exists', () => {
    if (existsSync(path.join(SRC, 'github', 'threads.ts'))) expect(queries.length).toBeGreaterThan(0);
  });

  it.each(queries.map((q) => [`${q.file}: ${q.name}`, q] as const))('%s is valid', (_label, q) => {
    expect(errorsOf(q.text)).toEqual([]);
  });
});
