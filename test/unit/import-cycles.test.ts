// The layering rule at its smallest: no module of src/ imports, through any chain, a module that
// imports it back (type-only imports included: they tie the modules' meaning as much as values).
// Folder-level layering (docs/architecture.md) is stricter and not checked here yet.
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
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
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

it('finds a cycle where there is one (the check can fail)', () => {
  const graph = new Map([
    [path.join(SRC, 'a.ts'), [path.join(SRC, 'b.ts')]],
    [path.join(SRC, 'b.ts'), [path.join(SRC, 'a.ts')]],
    [path.join(SRC, 'c.ts'), [path.join(SRC, 'a.ts')]],
  ]);
  expect(cycles(graph)).toEqual([['a.ts', 'b.ts']]);
});
