// The licence notices of the third-party packages the bundle contains, written to dist/licenses.txt
// by esbuild.config.mjs. Minifying drops the notices from the code (and most packages carry none in
// their code: the licence is a file beside it), yet the MIT, ISC and Apache terms of the bundled
// packages ask that their notice travel with every copy. The list comes from the build's own
// metafile, so it names exactly what dist/ holds, and `.ci/run` and check-dist.yml, which fail
// on a dist/ that differs from a fresh build, keep it current like the rest of dist/.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const LICENCE_FILE = /^(licen[cs]e|copying|notice)(\.(md|txt|markdown))?$/i;

/**
 * The package folders (relative to `root`) of the inputs of an esbuild metafile: each input under
 * node_modules/ belongs to the innermost package above it (a nested node_modules/ holds another
 * version of a package, with a licence of its own).
 */
export function bundledPackageDirs(metafile) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const at = input.lastIndexOf('node_modules/');
    if (at < 0) continue;
    const parts = input.slice(at + 'node_modules/'.length).split('/');
    const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
    dirs.add(`${input.slice(0, at)}node_modules/${name}`);
  }
  return [...dirs].sort();
}

/** One package's notice: its name, version and declared licence, then its licence files verbatim. */
function notice(root, dir) {
  const full = path.join(root, dir);
  const manifest = JSON.parse(readFileSync(path.join(full, 'package.json'), 'utf8'));
  const declared = typeof manifest.license === 'string' ? manifest.license : manifest.license?.type;
  const files = readdirSync(full)
    .filter((f) => LICENCE_FILE.test(f))
    .sort();
  if (!declared && files.length === 0) {
    throw new Error(`${dir}: the bundle contains this package, but it declares no licence and ships no licence file`);
  }
  const head = `${manifest.name} ${manifest.version}\nLicense: ${declared ?? 'see below'}`;
  const texts = files.map((f) => readFileSync(path.join(full, f), 'utf8').trim());
  if (texts.length === 0) {
    const author = typeof manifest.author === 'string' ? manifest.author : manifest.author?.name;
    const by = author ? ` Author: ${author}.` : '';
    texts.push(`The package ships no licence file; its package.json declares ${declared}.${by}`);
  }
  return [head, ...texts].join('\n\n');
}

/** The text of dist/licenses.txt for the packages of a metafile. */
export function licenceNotices(metafile, root = process.cwd()) {
  const dirs = bundledPackageDirs(metafile);
  const rule = '-'.repeat(78);
  return [
    'Third-party software bundled into dist/ by esbuild.config.mjs, with the licence of each package.',
    `pr-review-loop itself is under the MIT licence in LICENSE. ${dirs.length} packages follow.`,
    ...dirs.map((dir) => `${rule}\n${notice(root, dir)}`),
    '',
  ].join('\n\n');
}
