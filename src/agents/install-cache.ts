// The Actions cache service as a store of finished CLI installs, so that a hosted runner, whose
// tool cache starts empty every job, downloads a pinned CLI from npm once and not on every run.
// The cache only ever saves time: a miss, a refusal, an error or no service at all is one log
// line, and the caller installs with npm as it would without it.
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { CliKind } from './cli-versions.js';

/** Part of every key: a change to what is saved, or to how, starts new entries instead of reading old ones. */
const CACHE_KEY_FORMAT = 'v1';

/** Where installs are kept and found again; both operations are best-effort and never throw. */
export interface InstallCache {
  /** Restores the entry of `key` into `folder`; true when something was restored (not yet checked). */
  restore(key: string, folder: string): Promise<boolean>;
  /** Saves `folder` under `key`; a failure is logged and otherwise ignored. */
  save(key: string, folder: string): Promise<void>;
}

/** An exact npm version: a dist-tag (`latest`) names different code over time and is never cached. */
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/;

/** The entry's key, or null for a version that is not exact. Installs differ by OS and CPU. */
/** An npm version (`2.1.197`, `1.0.0-beta.2`), not a dist-tag such as `latest`. */
export function isExactVersion(version: string): boolean {
  return EXACT_VERSION.test(version);
}

export function installCacheKey(kind: CliKind, version: string, platform = process.platform, arch = process.arch) {
  return isExactVersion(version)
    ? `pr-review-loop-cli-${CACHE_KEY_FORMAT}-${kind}-${version}-${platform}-${arch}`
    : null;
}

/**
 * Why the cache service cannot be used by this step, or null when it can. The variables are the
 * ones the runner gives a JavaScript action and the cache client reads: the service URL (the
 * results service of the v2 API, or the older cache URL) and the job's runtime token. A local run
 * has none of them.
 */
function cacheServiceMissing(env: NodeJS.ProcessEnv): string | null {
  if (!env.ACTIONS_RUNTIME_TOKEN) return 'ACTIONS_RUNTIME_TOKEN is not set';
  const url = env.ACTIONS_CACHE_SERVICE_V2 ? env.ACTIONS_RESULTS_URL : env.ACTIONS_CACHE_URL || env.ACTIONS_RESULTS_URL;
  return url ? null : 'no cache service URL is set (ACTIONS_RESULTS_URL / ACTIONS_CACHE_URL)';
}

type CacheClient = Pick<typeof import('@actions/cache'), 'restoreCache' | 'saveCache'>;

/**
 * The store backed by the official client. The client (and the Azure blob client it brings) is
 * loaded on the first call, so a run that finds every CLI on PATH or in the tool cache, and the
 * start of every run, never pays for it. The client reads the service's address and token from
 * the process environment, which is where the runner puts them; `env` is checked first so that
 * a step without the service says so once and never loads the client.
 */
export function actionsInstallCache(env: NodeJS.ProcessEnv, log: (line: string) => void): InstallCache {
  let client: Promise<CacheClient | null> | undefined;
  const load = () =>
    (client ??= (async () => {
      const missing = cacheServiceMissing(env);
      if (!missing) return import('@actions/cache');
      log(`cache: the CLIs are installed with npm: the Actions cache service is not available (${missing})`);
      return null;
    })());
  // Saves are not refused for a PR from a fork: its run can write only the cache scope of that PR's
  // merge ref, which no other PR or branch reads, and the service refuses writes it does not allow.
  // A refused save (write denied for this event, entry already there, quota) says the next one
  // would be refused too: later saves of the run are skipped rather than paid for again.
  let savesRefused = false;
  return {
    async restore(key, folder) {
      try {
        const cache = await load();
        if (!cache) return false;
        const hit = await cache.restoreCache([folder], key);
        log(hit ? `cache: restored ${key}` : `cache: nothing restored for ${key}`);
        return hit !== undefined;
      } catch (e) {
        log(`cache: restoring ${key} failed, installing instead: ${message(e)}`);
        return false;
      }
    },
    async save(key, folder) {
      if (savesRefused) return;
      try {
        const cache = await load();
        if (!cache) return;
        const id = await cache.saveCache([folder], key);
        if (id === -1) savesRefused = true;
        log(id === -1 ? `cache: ${key} was not saved (the cache client's line above says why)` : `cache: saved ${key}`);
      } catch (e) {
        savesRefused = true;
        log(`cache: saving ${key} failed: ${message(e)}`);
      }
    },
  };
}

/**
 * Null when every entry below `folder` belongs to this process's user and no one else may write
 * it, as npm leaves an install; else what is not so. A restored archive keeps the owners and modes
 * it was made with where tar is allowed to (as root): an entry another user owns or may write
 * could be changed under the action between the check and the call that runs it.
 */
export async function foreignEntry(folder: string, uid = process.getuid?.() ?? -1): Promise<string | null> {
  const pending = [folder];
  for (let entry = pending.pop(); entry !== undefined; entry = pending.pop()) {
    const st = await lstat(entry);
    if (uid >= 0 && st.uid !== uid) return `${entry} is owned by uid ${st.uid}`;
    const mode = st.mode & 0o777;
    if (!st.isSymbolicLink() && mode & 0o022) return `${entry} is writable by others (mode ${mode.toString(8)})`;
    if (st.isDirectory()) for (const name of await readdir(entry)) pending.push(path.join(entry, name));
  }
  return null;
}

function message(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}
