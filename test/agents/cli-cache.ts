// The pinned agent CLIs for the test suite, installed once into .cache/clis/
// (git-ignored). Used by the vitest global setup, npm run bench and scripts/install-clis.mjs,
// so `npm test` and `npm run bench` on a fresh clone install what they need by themselves.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_KINDS, CLI_PACKAGES } from '../../src/agents/cli-versions.js';
import type { CliKind } from '../../src/agents/cli-versions.js';
import { installCli, installedBin } from '../../src/agents/install.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A folder others may not enter above `dir` (a clone in `mktemp -d` is 0700). */
function privateAncestor(dir: string): boolean {
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      if ((statSync(d).mode & 0o001) === 0) return true;
    } catch {
      return false;
    }
    if (d === path.dirname(d)) return false;
  }
}

/**
 * The e2e tests run the CLIs as the action's sandbox user, which must enter every folder above
 * them. In a private clone the action opens them (o+x) for its run and closes them when the run
 * ends, and two runs at once (vitest's workers) close them under each other; so a private clone
 * keeps its CLIs in a folder of its own under the system temp folder, which anyone may enter.
 */
export const CLI_CACHE_DIR =
  process.env.PRL_CLI_CACHE_DIR ??
  (privateAncestor(ROOT)
    ? path.join(tmpdir(), `prl-test-clis-${createHash('sha1').update(ROOT).digest('hex').slice(0, 8)}`)
    : path.join(ROOT, '.cache', 'clis'));

export function cachePrefix(kind: CliKind): string {
  return path.join(CLI_CACHE_DIR, `${CLI_PACKAGES[kind].bin}@${CLI_PACKAGES[kind].version}`);
}

/** The cached CLI's executable; throws (does not skip) when it is missing. */
export async function cachedCliBin(kind: CliKind): Promise<string> {
  const bin = await installedBin(kind, cachePrefix(kind), CLI_PACKAGES[kind].version);
  if (!bin) throw new Error(`${kind} is not installed in ${cachePrefix(kind)}: run node scripts/install-clis.mjs`);
  return bin;
}

/** Installs every pinned CLI that is not in the cache yet, two at a time (2-core machines). */
export async function installPinnedClis(log: (line: string) => void = console.log): Promise<void> {
  const queue = [...CLI_KINDS];
  const worker = async (): Promise<void> => {
    for (let kind = queue.shift(); kind; kind = queue.shift()) {
      const { pkg, version } = CLI_PACKAGES[kind];
      if (await installedBin(kind, cachePrefix(kind), version)) continue;
      const started = Date.now();
      log(`installing ${pkg}@${version} into ${cachePrefix(kind)} …`);
      await installCli(kind, version, cachePrefix(kind));
      log(`installed ${pkg}@${version} in ${Math.round((Date.now() - started) / 1000)} s`);
    }
  };
  await Promise.all([worker(), worker()]);
}
