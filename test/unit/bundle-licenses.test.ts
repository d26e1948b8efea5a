// dist/licenses.txt (scripts/bundle-licenses.mjs): every third-party package of the bundle with its
// licence. The collector runs on a package tree made here, laid out as npm lays one out; the
// committed file is checked against the packages the committed bundle was built from.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { bundledPackageDirs, licenceNotices } from '../../scripts/bundle-licenses.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function pkg(dir: string, manifest: object, files: Record<string, string> = {}): void {
  mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, dir, 'package.json'), JSON.stringify(manifest));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, dir, name), text);
}

/** An esbuild metafile's inputs: only their names matter to the collector. */
const metafile = (...inputs: string[]) => ({ inputs: Object.fromEntries(inputs.map((i) => [i, {}])) });

it('lists each bundled package once, nested versions and scoped names included, with its licence text', () => {
  root = mkdtempSync(path.join(tmpdir(), 'bundle-licenses-'));
  pkg('node_modules/plain', { name: 'plain', version: '1.0.0', license: 'MIT' }, { LICENSE: 'Copyright plain' });
  pkg('node_modules/@scope/lib', { name: '@scope/lib', version: '2.0.0', license: 'ISC' }, { 'LICENCE.md': 'ISC lib' });
  pkg(
    'node_modules/@scope/lib/node_modules/plain',
    { name: 'plain', version: '0.9.0', license: 'MIT' },
    {
      'license.txt': 'Copyright old plain',
    },
  );
  pkg('node_modules/bare', { name: 'bare', version: '3.0.0', license: 'MIT', author: 'Ann Author' });
  const meta = metafile(
    'src/main.ts',
    'node_modules/plain/index.js',
    'node_modules/plain/lib/more.js',
    'node_modules/@scope/lib/dist/a.js',
    'node_modules/@scope/lib/node_modules/plain/index.js',
    'node_modules/bare/index.js',
  );
  expect(bundledPackageDirs(meta)).toEqual([
    'node_modules/@scope/lib',
    'node_modules/@scope/lib/node_modules/plain',
    'node_modules/bare',
    'node_modules/plain',
  ]);
  const text = licenceNotices(meta, root);
  expect(text).toContain('4 packages follow');
  expect(text).toContain('@scope/lib 2.0.0\nLicense: ISC\n\nISC lib');
  expect(text).toContain('plain 0.9.0\nLicense: MIT\n\nCopyright old plain');
  expect(text).toContain('plain 1.0.0\nLicense: MIT\n\nCopyright plain');
  expect(text).toContain(
    'bare 3.0.0\nLicense: MIT\n\nThe package ships no licence file; its package.json declares MIT.',
  );
  expect(text).toContain('Author: Ann Author');
  // Our own sources are not a third-party package.
  expect(text).not.toContain('src/main.ts');
});

it('refuses to build with a package that states no licence at all', () => {
  root = mkdtempSync(path.join(tmpdir(), 'bundle-licenses-'));
  pkg('node_modules/unknown', { name: 'unknown', version: '1.0.0' });
  expect(() => licenceNotices(metafile('node_modules/unknown/index.js'), root)).toThrow(
    'node_modules/unknown: the bundle contains this package, but it declares no licence and ships no licence file',
  );
});

it('the committed dist/licenses.txt names the runtime dependencies the bundle is built from', () => {
  root = mkdtempSync(path.join(tmpdir(), 'bundle-licenses-'));
  const text = readFileSync(path.join(ROOT, 'dist/licenses.txt'), 'utf8');
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  for (const name of Object.keys(manifest.dependencies)) {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
    expect(text, name).toContain(`\n${name} ${version}\nLicense: `);
  }
  // Development tools never reach the bundle.
  for (const name of ['vitest', 'esbuild', 'typescript']) expect(text).not.toContain(`\n${name} `);
});
