// The layers of src/ (docs/architecture.md): every import points down, from a folder to a folder of
// a lower layer or within its own folder, and no module imports, through any chain, a module that
// imports it back. Type-only imports count: they tie the modules' meaning as much as values.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)'/g)].map(
    (m) => m[1]!,
  );
  return specs.map((s) => path.resolve(path.dirname(file), s.replace(/\.js$/, '.ts')));
}

/** Strongly connected components with more than one module (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        on.delete(w);
        scc.push(w);
        if (w === v) break;
      }
      if (scc.length > 1) found.push(scc.map((f) => path.relative(SRC, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

it('no module of src/ is in an import cycle', () => {
  const graph = new Map(files(SRC).map((f) => [f, importsOf(f)]));
  expect(graph.size).toBeGreaterThan(100);
  expect(cycles(graph)).toEqual([]);
});

/**
 * Highest first: a folder may import only the folders of the layers below it. '.' is the
 * coordinator at the top of src/ (run.ts and its phases run-*.ts, loop.ts, loop-steps.ts, termination.ts,
 * outputs.ts, main.ts).
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['.'],
  ['preflight'],
  ['report'],
  ['review', 'fix'],
  ['ci'],
  ['roles'],
  ['commands'],
  ['config'],
  ['agents'],
  ['sandbox'],
  ['budget', 'github'],
  ['git'],
  ['process', 'security', 'files'],
  ['domain'],
];

/** Each import that does not point down the layers, as `from -> to`. */
function upward(graph: Map<string, string[]>): string[] {
  const layerOf = new Map(LAYERS.flatMap((folders, i) => folders.map((f) => [f, i] as const)));
  const folder = (f: string) => path.dirname(path.relative(SRC, f));
  const bad: string[] = [];
  for (const [from, tos] of graph) {
    for (const to of tos) {
      const [a, b] = [folder(from), folder(to)];
      if (a === b) continue;
      const [la, lb] = [layerOf.get(a), layerOf.get(b)];
      if (la === undefined || lb === undefined || lb <= la)
        bad.push(`${path.relative(SRC, from)} -> ${path.relative(SRC, to)}`);
    }
  }
  return bad;
}

it('every import points down the layers, and every folder has its layer', () => {
  const graph = new Map(files(SRC).map((f) => [f, importsOf(f)]));
  expect(upward(graph)).toEqual([]);
  const folders = new Set([...graph.keys()].map((f) => path.dirname(path.relative(SRC, f))));
  expect([...folders].sort()).toEqual(LAYERS.flat().sort());
});

it('finds an import that points up, sideways, or into a folder with no layer (the check can fail)', () => {
  const graph = new Map([
    [path.join(SRC, 'domain/a.ts'), [path.join(SRC, 'review/b.ts')]],
    [path.join(SRC, 'review/b.ts'), [path.join(SRC, 'fix/c.ts'), path.join(SRC, 'domain/a.ts')]],
    [path.join(SRC, 'git/d.ts'), [path.join(SRC, 'nowhere/e.ts')]],
  ]);
  expect(upward(graph)).toEqual(['domain/a.ts -> review/b.ts', 'review/b.ts -> fix/c.ts', 'git/d.ts -> nowhere/e.ts']);
});

it('docs/architecture.md shows the same layers', () => {
  const doc = readFileSync(path.join(SRC, '../docs/architecture.md'), 'utf8');
  const shown = LAYERS.map((l) => l.map((f) => (f === '.' ? 'the coordinator' : `${f}/`)).join(', ')).join(' → ');
  expect(doc).toContain(shown);
});

it('finds a cycle where there is one (the check can fail)', () => {
  const graph = new Map([
    [path.join(SRC, 'a.ts'), [path.join(SRC, 'b.ts')]],
    [path.join(SRC, 'b.ts'), [path.join(SRC, 'a.ts')]],
    [path.join(SRC, 'c.ts'), [path.join(SRC, 'a.ts')]],
  ]);
  expect(cycles(graph)).toEqual([['a.ts', 'b.ts']]);
});
