// Brings a case's public code onto this machine at eval time, checked by hash: an npm package at
// an exact version (its tarball's sha512 must equal the case's integrity) or a git commit (fetched
// by its full sha; git checks the objects against it). Nothing fetched is committed anywhere.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CaseSource } from './case.js';

/** A fresh folder holding the source's files (no .git); the caller removes it. */
export function fetchSource(source: CaseSource, caseName: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `eval-${caseName}-`));
  try {
    if ('npm' in source) fetchNpm(source, dir);
    else fetchGit(source, dir);
    return path.join(dir, 'tree');
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`case ${caseName}: could not fetch its code: ${(e as Error).message}`);
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
  const tree = path.join(dir, 'tree');
  mkdirSync(tree);
  // npm tarballs hold one top folder (usually package/).
  execFileSync('tar', ['-xzf', file, '-C', tree, '--strip-components=1', '--no-same-owner'], { stdio: 'pipe' });
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
