// One evaluation case: what eval/cases/<name>/ holds, read and checked. A case names public code
// (a registry package and exact version with its integrity, a Debian source package's upstream
// tarball and its sha256, or a git repository and full commit)
// and carries only this project's writing: the PR's patch and description, where the bug is, and a
// held-out test that fails on the PR and passes on the code before it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const PRIORITY = z.enum(['P0', 'P1', 'P2', 'P3']);

const npmSource = z.strictObject({
  npm: z.string().regex(/^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/, 'a package name, e.g. "negotiator"'),
  version: z.string().regex(/^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/, 'an exact version, e.g. "0.6.2"'),
  integrity: z
    .string()
    .regex(/^sha512-[A-Za-z0-9+/]+={0,2}$/, 'the registry\'s "sha512-…" (npm view name@version dist.integrity)'),
});
const gitSource = z.strictObject({
  git: z.string().min(1, 'a clone URL, e.g. "https://github.com/jshttp/negotiator.git"'),
  commit: z.string().regex(/^[0-9a-f]{40}$/, 'a full 40-hex commit sha'),
});

/** A Debian source package's file: its upstream tarball (`*.orig.tar.*`) carries the project's tests. */
const debianSource = z.strictObject({
  debian: z.string().regex(/^[a-z0-9][a-z0-9.+-]+$/, 'a Debian source package name, e.g. "pyjwt"'),
  file: z
    .string()
    .regex(/^[a-z0-9][\w.+~-]*\.orig\.tar\.(?:gz|xz|bz2)$/, 'an upstream tarball, e.g. "pyjwt_2.10.1.orig.tar.gz"'),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "the file's sha256 as the package's .dsc lists it (64 hex digits)"),
});

const place = z.strictObject({
  file: z.string().min(1),
  /** First and last line of the bug in the file as the PR leaves it. */
  lines: z.tuple([z.number().int().positive(), z.number().int().positive()]),
});

const caseFile = z.strictObject({
  /** Where the reviewed code comes from, for a reader: the project's page and its licence. */
  project: z.strictObject({ repository: z.string().url(), licence: z.string().min(1) }),
  source: z.union([npmSource, debianSource, gitSource]),
  bug: z.strictObject({
    summary: z.string().min(1),
    /** The lowest priority a finding may have and still count as finding the bug. */
    priority: PRIORITY,
    places: z.array(place).min(1),
  }),
  heldout: z.strictObject({
    /** The file in the case's folder, written into the checkout at `path` only to judge. */
    file: z.string().min(1),
    path: z.string().min(1),
    command: z.string().min(1),
  }),
  /** The action's `setup` input for this case (installs the project), unless the configuration sets one. */
  setup: z.string().optional(),
  /** The action's `verify` input for this case, unless the configuration sets one. */
  verify: z.string().optional(),
});

export type BugPlace = z.infer<typeof place>;

export interface EvalCase extends z.infer<typeof caseFile> {
  name: string;
  dir: string;
  title: string;
  description: string;
  patchFile: string;
}

const EXAMPLE =
  '{ "project": { "repository": "https://github.com/jshttp/negotiator", "licence": "MIT" }, ' +
  '"source": { "npm": "negotiator", "version": "0.6.2", "integrity": "sha512-…" }, ' +
  '"bug": { "summary": "…", "priority": "P1", "places": [{ "file": "lib/charset.js", "lines": [61, 66] }] }, ' +
  '"heldout": { "file": "heldout.test.js", "path": "eval-heldout.test.js", "command": "node eval-heldout.test.js" } }';

/** Reads eval/cases/<name>/: case.json, pr.patch, pr.md (a `# title` line, then the description). */
export function readCase(folder: string): EvalCase {
  const dir = path.resolve(folder);
  const name = path.basename(dir);
  const file = path.join(dir, 'case.json');
  if (!existsSync(file)) throw new Error(`case ${name}: ${file} is missing; a valid case.json looks like: ${EXAMPLE}`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`case ${name}: ${file} is not JSON (${(e as Error).message}); a valid one: ${EXAMPLE}`);
  }
  const parsed = caseFile.safeParse(raw);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
    throw new Error(`case ${name}: ${file} is not a valid case (${why}); a valid one: ${EXAMPLE}`);
  }
  for (const p of parsed.data.bug.places) {
    if (p.lines[1] < p.lines[0]) throw new Error(`case ${name}: bug place ${p.file} ends before it starts`);
  }
  const src = parsed.data.source;
  if ('debian' in src && !src.file.startsWith(`${src.debian}_`)) {
    // Debian names a source package's upstream tarball <package>_<upstream version>.orig.tar.*.
    throw new Error(
      `case ${name}: ${file}: source.file ${src.file} is not a file of source package ${src.debian}; ` +
        `e.g. { "debian": "pyjwt", "file": "pyjwt_2.10.1.orig.tar.gz", "sha256": "…" }`,
    );
  }
  for (const need of ['pr.patch', 'pr.md', parsed.data.heldout.file]) {
    if (!existsSync(path.join(dir, need))) throw new Error(`case ${name}: ${path.join(dir, need)} is missing`);
  }
  const [first = '', ...rest] = readFileSync(path.join(dir, 'pr.md'), 'utf8').split('\n');
  const title = first.replace(/^#+\s*/, '').trim();
  if (!title) throw new Error(`case ${name}: pr.md must start with the PR's title, e.g. "# Fix the parser"`);
  return {
    ...parsed.data,
    name,
    dir,
    title,
    description: rest.join('\n').trim(),
    patchFile: path.join(dir, 'pr.patch'),
  };
}
