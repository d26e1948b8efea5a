// The guide's layout rule, checked with the suite: no line of src/ over 120 characters.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const MAX = 120;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** `file:line (length)` for every line over `max` characters. */
export function longLines(files: string[], max: number): string[] {
  return files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .flatMap((line, i) => (line.length > max ? [`${path.relative(SRC, f)}:${i + 1} (${line.length})`] : [])),
  );
}

it(`no line in src/ is over ${MAX} characters`, () => {
  const files = sources(SRC);
  expect(files.length).toBeGreaterThan(100);
  expect(longLines(files, MAX)).toEqual([]);
});

it('the check sees a long line', () => {
  // run.ts has lines of 100+ characters: with a lower limit they must show up.
  expect(longLines([path.join(SRC, 'run.ts')], 60).length).toBeGreaterThan(0);
});
