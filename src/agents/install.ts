// Makes an agent CLI available: the one on PATH when there is one, else the
// pinned (or user-chosen) npm version installed into the runner's tool cache.
import { access, constants, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { CLI_PACKAGES } from './cli-versions.js';
import type { CliKind } from './cli-versions.js';
import { agentEnv } from './env.js';
import { foreignEntry, installCacheKey, isExactVersion, type InstallCache } from './install-cache.js';
import { runProcess } from '../process/process.js';
import { pathThenSystem, trustedProgram } from '../process/programs.js';

export interface EnsureCliOptions {
  /** npm version to install when the CLI is not on PATH; default the pinned one. */
  version?: string;
  /** Root of the tool cache; the CLI goes to `<toolCacheDir>/<kind>-<version>`. */
  toolCacheDir: string;
  log?: (line: string) => void;
  /** PATH to search first; default process.env.PATH. '' skips the search. */
  searchPath?: string;
  /** Where finished installs are kept between runs (the Actions cache); none: npm every time. */
  cache?: InstallCache;
}

const INSTALL_TIMEOUT_MS = 15 * 60_000;
/** Postinstall stubs are a few KiB; the real CLIs are tens of MiB or JS bundles with a shebang. */
const STUB_MAX_BYTES = 64 * 1024;

/** Path of the CLI's executable, installing it first if needed. Throws when npm fails. */
export async function ensureCli(kind: CliKind, opts: EnsureCliOptions): Promise<string> {
  const { pkg, bin, version: pinned } = CLI_PACKAGES[kind];
  const log = opts.log ?? (() => {});
  const onPath = await findOnPath(bin, opts.searchPath ?? process.env.PATH ?? '');
  if (onPath) {
    log(`${kind}: using ${onPath} from PATH`);
    return onPath;
  }
  const version = opts.version ?? pinned;
  const prefix = path.join(opts.toolCacheDir, `${kind}-${version}`);
  const cached = await installedBin(kind, prefix, version);
  if (cached) {
    log(`${kind}: using ${pkg}@${version} from the tool cache (${cached})`);
    return cached;
  }
  const key = opts.cache ? installCacheKey(kind, version) : null;
  if (opts.cache && !key) log(`${kind}: ${version} is not an exact version; the cache keeps exact versions only`);
  if (!opts.cache || !key) {
    log(`${kind}: not on PATH; installing ${pkg}@${version} with npm into ${prefix}`);
    return installCli(kind, version, prefix);
  }
  const restored = await restoreCli(kind, version, prefix, opts.cache, key, log);
  return restored ?? installAndSave(kind, version, prefix, opts.cache, key, log);
}

/**
 * The folder an install passes through on its way between the cache and `prefix`. The cache
 * client files an entry under the path it was saved from, so this path is the same in every run;
 * `prefix` only ever receives a checked install, whole, by a rename.
 */
function transferFolder(prefix: string): string {
  return path.join(path.dirname(prefix), 'transfer', path.basename(prefix));
}

/** The executable of a checked install restored from the cache into `prefix`, or null. */
async function restoreCli(
  kind: CliKind,
  version: string,
  prefix: string,
  cache: InstallCache,
  key: string,
  log: (line: string) => void,
): Promise<string | null> {
  const transfer = transferFolder(prefix);
  await rm(transfer, { recursive: true, force: true });
  await mkdir(path.dirname(transfer), { recursive: true });
  if (!(await cache.restore(key, transfer))) {
    await rm(transfer, { recursive: true, force: true }); // a restore that broke off may leave a part
    return null;
  }
  // What the cache holds is only trusted as a whole install of this version, kept as npm leaves one.
  const unfit = (await installedBin(kind, transfer, version))
    ? await foreignEntry(transfer).catch(String)
    : `no runnable ${CLI_PACKAGES[kind].pkg}@${version} in it`;
  if (unfit) {
    log(`${kind}: the cache entry ${key} is not used (${unfit}); installing with npm`);
    await rm(transfer, { recursive: true, force: true });
    return null;
  }
  await moveInto(transfer, prefix);
  const bin = await installedBin(kind, prefix, version);
  if (bin) log(`${kind}: using ${CLI_PACKAGES[kind].pkg}@${version} restored from the cache (${bin})`);
  return bin;
}

/** npm install, then the cache entry saved before anything else can run the CLI or write its files. */
async function installAndSave(
  kind: CliKind,
  version: string,
  prefix: string,
  cache: InstallCache,
  key: string,
  log: (line: string) => void,
): Promise<string> {
  const transfer = transferFolder(prefix);
  await rm(transfer, { recursive: true, force: true });
  await mkdir(path.dirname(transfer), { recursive: true });
  log(`${kind}: not on PATH; installing ${CLI_PACKAGES[kind].pkg}@${version} with npm into ${prefix}`);
  await installCli(kind, version, transfer);
  await cache.save(key, transfer);
  await moveInto(transfer, prefix);
  const bin = await installedBin(kind, prefix, version);
  if (!bin) throw new Error(`installed ${CLI_PACKAGES[kind].pkg}@${version}, but found no runnable CLI in ${prefix}`);
  return bin;
}

/** Renames `from` to `to`; when another process put an install at `to` first, `from` is dropped. */
async function moveInto(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch {
    await rm(from, { recursive: true, force: true });
  }
}

/**
 * `npm install <pkg>@<version>` into `prefix`. It installs into a sibling temp
 * folder first and renames it, so a half-finished install is never taken for a
 * finished one (and two concurrent installs cannot mix).
 */
export async function installCli(kind: CliKind, version: string, prefix: string): Promise<string> {
  const { pkg } = CLI_PACKAGES[kind];
  const tmp = `${prefix}.tmp-${process.pid}-${Date.now()}`;
  // No package's install script runs: it would run as the action's user, which can read the token
  // from the action's own process however clean its environment. The CLIs need none (installedBin
  // takes the native binary where a postinstall would have put it). npm is started from a folder no
  // call can write, and finds its node there first (programs.ts).
  let npm: string;
  try {
    npm = trustedProgram('npm', pathThenSystem());
  } catch (e) {
    throw new Error(`installing ${pkg}@${version} needs npm: ${e instanceof Error ? e.message : String(e)}`);
  }
  const env = agentEnv(process.env, {});
  env.PATH = [path.dirname(npm), env.PATH].filter(Boolean).join(path.delimiter);
  // npm starts in the folder that will hold the install, which a fresh tool cache does not have yet.
  await mkdir(path.dirname(prefix), { recursive: true });
  const res = await runProcess({
    command: npm,
    args: [
      'install',
      '--prefix',
      tmp,
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `${pkg}@${version}`,
    ],
    cwd: path.dirname(prefix),
    env,
    timeoutMs: INSTALL_TIMEOUT_MS,
  });
  if (res.exitCode !== 0) {
    await rm(tmp, { recursive: true, force: true });
    const tail = res.stderr.trimEnd().split('\n').slice(-15).join('\n');
    throw new Error(
      `installing ${pkg}@${version} with npm failed (${res.timedOut ? 'timed out' : `exit ${res.exitCode}`}):\n${tail}`,
    );
  }
  try {
    await rename(tmp, prefix);
  } catch {
    await rm(tmp, { recursive: true, force: true }); // another process finished first
  }
  const bin = await installedBin(kind, prefix, version);
  if (!bin)
    throw new Error(
      `installed ${pkg}@${version} into ${prefix}, but found no runnable '${CLI_PACKAGES[kind].bin}' in it`,
    );
  return bin;
}

/**
 * The runnable executable of an install at `prefix`, or null when `pkg@version`
 * is not installed there. When npm skipped a postinstall (npm 11 `allowScripts`),
 * Claude Code and OpenCode leave a stub in bin/; then the platform package's
 * native binary is used directly.
 */
export async function installedBin(kind: CliKind, prefix: string, version: string): Promise<string | null> {
  const { pkg, bin } = CLI_PACKAGES[kind];
  const modules = path.join(prefix, 'node_modules');
  try {
    const meta = JSON.parse(await readFile(path.join(modules, pkg, 'package.json'), 'utf8')) as { version?: string };
    // A dist-tag (`latest`) names whatever version npm installed for it; an exact version must match.
    if (!meta.version || (isExactVersion(version) && meta.version !== version)) return null;
  } catch {
    return null;
  }
  const linked = path.join(modules, '.bin', bin);
  if (kind !== 'claude' && kind !== 'opencode') return (await isExecutable(linked)) ? linked : null;
  if ((await isExecutable(linked)) && (await stat(linked)).size > STUB_MAX_BYTES) return linked;
  return nativeFallback(kind, modules);
}

async function nativeFallback(kind: 'claude' | 'opencode', modules: string): Promise<string | null> {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const candidates =
    kind === 'claude'
      ? [`${process.platform}-${process.arch}`, `${process.platform}-${process.arch}-musl`].map((p) =>
          path.join(modules, '@anthropic-ai', `claude-code-${p}`, 'claude'),
        )
      : // baseline first: it runs on every x64 CPU, with or without AVX2.
        ['-baseline', '', '-baseline-musl', '-musl'].map((v) =>
          path.join(modules, `opencode-${os}-${process.arch}${v}`, 'bin', 'opencode'),
        );
  for (const c of candidates) if (await isExecutable(c)) return c;
  return null;
}

/** The first executable `bin` in a PATH string. */
async function findOnPath(bin: string, searchPath: string): Promise<string | null> {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, bin);
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
