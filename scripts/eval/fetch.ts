// Brings a case's public code onto this machine at eval time, checked by hash: an npm package at
// an exact version (its tarball's sha512 must equal the case's integrity), a Debian source
// package's upstream tarball (its sha256 must equal the case's), or a git commit (fetched by its
// full sha; git checks the objects against it). Nothing fetched is committed anywhere.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EvalCase } from './case.js';

/** Debian's archive; PRL_EVAL_DEBIAN_MIRROR names another with the same pool/ layout. */
const DEBIAN_ARCHIVE = 'http://deb.debian.org/debian';

/** A fresh folder holding the case's code (no .git); the caller removes its parent. */
export async function fetchSource(c: Pick<EvalCase, 'name' | 'dir' | 'source'>): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), `eval-${c.name}-`));
  try {
    const s = c.source;
    if ('npm' in s) fetchNpm(s, dir);
    else if ('debian' in s) await fetchDebian(s, dir);
    else fetchGit(s, dir);
    return path.join(dir, 'tree');
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    const file = path.join(c.dir, 'case.json');
    throw new Error(`case ${c.name}: could not fetch the code ${file} names: ${(e as Error).message}`);
  }
}

function fetchNpm(s: { npm: string; version: string; integrity: string }, dir: string): void {
  const spec = `${s.npm}@${s.version}`;
  // npm takes the tarball from its cache when it has it (npm ci fills the cache): offline runs of a
  // devDependency work with npm_config_offline=true. The hash below is checked either way.
  const packed = path.join(dir, 'packed');
  mkdirSync(packed);
  execFileSync('npm', ['pack', spec, '--ignore-scripts', '--pack-destination', packed], { stdio: 'pipe' });
  const [tarball] = readdirSync(packed);
  if (!tarball) throw new Error(`npm pack ${spec} wrote no tarball`);
  const file = path.join(packed, tarball);
  const got = `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
  if (got !== s.integrity) {
    throw new Error(`${spec}'s tarball has integrity ${got}, the case expects ${s.integrity}: refusing to use it`);
  }
  // npm tarballs hold one top folder (usually package/).
  unpack(file, dir);
}

/** The pool folder of a source package: lib* packages sit under their first four letters. */
function poolFolder(source: string): string {
  return `${source.startsWith('lib') ? source.slice(0, 4) : source[0]}/${source}`;
}

async function fetchDebian(s: { debian: string; file: string; sha256: string }, dir: string): Promise<void> {
  const archive = (process.env.PRL_EVAL_DEBIAN_MIRROR || DEBIAN_ARCHIVE).replace(/\/+$/, '');
  // Plain HTTP is how Debian's mirrors serve the pool; the sha256 below, written in the case, is
  // what makes the bytes trustworthy, as apt's signed indexes do for apt.
  const url = `${archive}/pool/main/${poolFolder(s.debian)}/${s.file}`;
  const res = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  if (!res.ok) throw new Error(`${url} answered ${res.status} ${res.statusText}`);
  const body = Buffer.from(await res.arrayBuffer());
  const got = createHash('sha256').update(body).digest('hex');
  if (got !== s.sha256) {
    throw new Error(`${url} has sha256 ${got}, the case expects ${s.sha256}: refusing to use it`);
  }
  const file = path.join(dir, s.file);
  writeFileSync(file, body);
  // An upstream tarball holds one top folder (name-version/); tar tells gzip, xz and bzip2 apart.
  unpack(file, dir);
}

function unpack(file: string, dir: string): void {
  const tree = path.join(dir, 'tree');
  mkdirSync(tree);
  execFileSync('tar', ['-xf', file, '-C', tree, '--strip-components=1', '--no-same-owner'], { stdio: 'pipe' });
  if (readdirSync(tree).length === 0) throw new Error(`${path.basename(file)} unpacked to nothing`);
}

function fetchGit(s: { git: string; commit: string }, dir: string): void {
  const tree = path.join(dir, 'tree');
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', tree, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  mkdirSync(tree);
  git('init', '-q');
  // By sha, not by branch: the server must have the commit, and git verifies the objects it receives.
  git('fetch', '-q', '--depth', '1', s.git, s.commit);
  git('-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', 'FETCH_HEAD');
  const head = git('rev-parse', 'HEAD').trim();
  if (head !== s.commit) throw new Error(`${s.git} gave commit ${head}, the case names ${s.commit}`);
  rmSync(path.join(tree, '.git'), { recursive: true, force: true });
}
