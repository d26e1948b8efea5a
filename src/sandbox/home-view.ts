// The runner's HOME as a sandboxed call sees it: at its own absolute path (PATH names
// `~/.cargo/bin`, and pipx and nvm write absolute paths into their files), holding the folders
// tools keep their toolchains and caches in (home-view.json, the workflow's `home-folders`, the
// folders the step's toolchain variables name), and nothing else of it. Tools write there while
// they run (Cargo's locks and unpacked crates, Go's build cache, Gradle's locks); what a call
// writes stays in that call: a kernel overlay per call, whose upper layer is the call's own and is
// thrown away with it, never reaches the runner's real HOME, where later steps run with secrets.
//
// A kernel overlay keeps each lower file's owner and mode, so the sandbox user could not create a
// file in a folder the runner owns. So between the call's layer and the real HOME lies a layer
// made once per run: every shown folder again, empty and owned by the sandbox user (a merged
// folder takes its owner and mode from its topmost layer), small lock files copied (tools open
// them to write in place), and a whiteout over everything the call must not see: every entry of
// HOME not shared, every denied name, every file others may not read and every folder others may
// not enter (what only the runner may read stays the runner's, whatever its name).
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import data from './home-view.json' with { type: 'json' };
import { mustAsRoot, type Privilege } from './privilege.js';

/** What the view shows, below HOME, and what it never shows. */
export interface HomeViewPlan {
  home: string;
  /** Folders below HOME (relative paths) shown with their contents. */
  shared: string[];
  /** Patterns of what is never shown (see home-view.json). */
  denied: string[];
}

/** The workflow's additions: more folders to share, more names to deny. */
export interface HomeFolders {
  share: readonly string[];
  deny: readonly string[];
}

/**
 * Variables naming folders a toolchain keeps its files in, as the `setup-*` actions and the tools
 * document them. A folder one names below HOME is shared; one elsewhere is the step's own choice.
 */
const TOOLCHAIN_FOLDER_VARIABLES: readonly string[] = [
  'CARGO_HOME',
  'RUSTUP_HOME',
  'GOPATH',
  'GOMODCACHE',
  'GOCACHE',
  'GRADLE_USER_HOME',
  'PLAYWRIGHT_BROWSERS_PATH',
  'PIP_CACHE_DIR',
  'npm_config_cache',
  'NVM_DIR',
  'PNPM_HOME',
  'PYENV_ROOT',
  'RBENV_ROOT',
  'SDKMAN_DIR',
  'DOTNET_ROOT',
  'NUGET_PACKAGES',
  'BUN_INSTALL',
  'DENO_DIR',
  'POETRY_HOME',
  'PIPX_HOME',
  'PIPX_BIN_DIR',
  'COMPOSER_HOME',
  'GEM_HOME',
  'JAVA_HOME',
  'ANDROID_HOME',
  'ANDROID_SDK_ROOT',
];

/** Git refuses a checkout another user owns unless this file lists it; the runner's own is not shown. */
const OWN_GITCONFIG = '.gitconfig';

/** Files tools open to write in place: copied into the run's layer so that the call owns its copy. */
const LOCK_FILE = /(\.lock|\.lck)$|^\.package-cache|^\.global-cache$/;
const LOCK_FILE_MAX_BYTES = 1024 * 1024;

/** The view for this step, or null when there is no HOME to show (none, `/`, or a path overlay options cannot hold). */
export function homeViewPlan(
  env: NodeJS.ProcessEnv,
  extra: HomeFolders = { share: [], deny: [] },
): HomeViewPlan | null {
  const home = env.HOME;
  if (!home || !path.isAbsolute(home) || path.resolve(home) === '/' || !isDir(home)) return null;
  // `:` and `,` separate overlay options and layers; such a HOME gets the empty one of before.
  if (/[:,\\]/.test(home)) return null;
  const root = path.resolve(home);
  const named = TOOLCHAIN_FOLDER_VARIABLES.map((name) => belowHome(root, env[name])).filter(
    (rel): rel is string => rel !== null,
  );
  const shared = [...new Set([...data.shared, ...extra.share, ...named].map((p) => path.normalize(p)))];
  return { home: root, shared, denied: [...data.denied, ...movedToolHomeDenials(root, env), ...extra.deny] };
}

/** `value` (a variable's) as a path below `root`, or null when it names no folder below it. */
function belowHome(root: string, value: string | undefined): string | null {
  if (!value || !path.isAbsolute(value)) return null;
  const rel = path.relative(root, path.resolve(value));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : null;
}

/**
 * A tool's home moved by its variable (GRADLE_USER_HOME=~/gradle-home) holds the same credentials
 * as its default folder (`gradle.properties`): each denial below the default folder is repeated
 * below the folder the variable names.
 */
function movedToolHomeDenials(root: string, env: NodeJS.ProcessEnv): string[] {
  return Object.entries(data.toolHomes).flatMap(([name, folder]) => {
    const rel = belowHome(root, env[name]);
    if (rel === null || rel === folder) return [];
    return data.denied.filter((p) => p.startsWith(`${folder}/`)).map((p) => `${rel}/${p.slice(folder.length + 1)}`);
  });
}

/**
 * A test for "`rel` (a path below HOME) matches a denied pattern". The walk visits a folder before
 * what it holds and skips what a hidden folder holds, so only the last name needs testing against
 * a bare name, and a path only against the patterns of its own depth.
 */
function deniedMatcher(denied: readonly string[]): (rel: string) => boolean {
  const bare = denied.filter((p) => !p.includes('/'));
  const anyName = bare.length ? new RegExp(`^(?:${bare.map(globSource).join('|')})$`) : null;
  const paths = denied
    .filter((p) => p.includes('/'))
    .map((p) => p.split('/').map((w) => new RegExp(`^${globSource(w)}$`)));
  return (rel) => {
    const parts = rel.split('/');
    if (anyName?.test(parts[parts.length - 1]!)) return true;
    return paths.some((want) => want.length === parts.length && want.every((w, i) => w.test(parts[i]!)));
  };
}

function globSource(pattern: string): string {
  return pattern
    .split('*')
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
}

/** What the run's layer holds, worked out from a walk of the shared folders. */
interface LayerContents {
  /** Folders to make (relative to HOME), parents first. */
  dirs: string[];
  /** Entries hidden (relative to HOME). */
  whiteouts: string[];
  /** Lock files copied (relative to HOME). */
  copies: string[];
  /** The names at HOME's top the layer decided on (shown or hidden); any other is hidden per call. */
  topNames: string[];
}

/** Walks HOME's shared folders (as the action's user, who owns them on a hosted runner). */
async function layerContents(plan: HomeViewPlan): Promise<LayerContents> {
  const out: LayerContents = { dirs: [], whiteouts: [], copies: [], topNames: [] };
  const denied = deniedMatcher(plan.denied);
  const isShared = (rel: string) => plan.shared.some((s) => inside(rel, s));
  const leadsToShared = (rel: string) => plan.shared.some((s) => inside(s, rel) && s !== rel);
  // The folders above a shared one: each shows its shared children and hides the rest.
  const ancestors = (['', ...plan.shared.flatMap((s) => parents(s))] as string[]).filter(
    (a, i, all) => all.indexOf(a) === i,
  );
  for (const dir of ancestors) {
    if (dir !== '' && (isShared(dir) || denied(dir))) continue;
    const abs = path.join(plan.home, dir);
    if (!isDir(abs)) continue;
    if (dir !== '') out.dirs.push(dir);
    for (const name of safeReaddir(abs)) {
      const rel = dir === '' ? name : `${dir}/${name}`;
      if (dir === '') out.topNames.push(name);
      // The layer's own ~/.gitconfig takes the place of the runner's.
      if (rel === OWN_GITCONFIG) continue;
      if (denied(rel) || !(isShared(rel) || leadsToShared(rel))) out.whiteouts.push(rel);
    }
  }
  const roots = plan.shared.filter((s) => !plan.shared.some((o) => o !== s && inside(s, o)) && !denied(s));
  for (const root of roots) {
    const abs = path.join(plan.home, root);
    if (!existsSync(abs) || !isDir(abs)) continue;
    // find lists a folder's entries right after it: below a hidden folder, skip until they end.
    let hiddenDir: string | null = null;
    for (const e of await walk(abs)) {
      const rel = path.relative(plan.home, e.path);
      if (hiddenDir !== null && rel.startsWith(`${hiddenDir}/`)) continue;
      hiddenDir = null;
      if (denied(rel)) {
        out.whiteouts.push(rel);
        if (e.type === 'd') hiddenDir = rel;
      } else if (e.type === 'd') {
        // The shared folder itself is shown whatever its mode (the list says so); below it, a
        // folder others may not enter keeps everything in it the runner's.
        if (rel !== root && (e.mode & 0o005) !== 0o005) {
          out.whiteouts.push(rel);
          hiddenDir = rel;
        } else out.dirs.push(rel);
      } else if (e.type === 'f') {
        if ((e.mode & 0o004) === 0) out.whiteouts.push(rel);
        else if (LOCK_FILE.test(path.basename(rel)) && e.size <= LOCK_FILE_MAX_BYTES) out.copies.push(rel);
      } else if (e.type !== 'l') {
        // Sockets, pipes and device nodes (an agent's socket) are never shown.
        out.whiteouts.push(rel);
      }
    }
  }
  return out;
}

interface Entry {
  type: string;
  mode: number;
  size: number;
  path: string;
}

/** Every entry below `dir`, parents first, with its type and mode; `find` walks a large cache fast. */
async function walk(dir: string): Promise<Entry[]> {
  const { stdout } = await promisify(execFile)('/usr/bin/find', [dir, '-printf', '%y %m %s %p\\0'], {
    maxBuffer: 512 * 1024 * 1024,
    encoding: 'utf8',
  }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
  return stdout
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [type, mode, size] = line.split(' ', 3) as [string, string, string];
      return {
        type,
        mode: parseInt(mode, 8),
        size: Number(size),
        path: line.slice(type.length + mode.length + size.length + 3),
      };
    });
}

/** The run's layer, built once; each call then mounts its own overlay of it over HOME. */
export interface HomeLayer {
  plan: HomeViewPlan;
  contents: LayerContents;
  /** True for a path the view shows from a shared folder (mounting it as it is would undo the view). */
  shows(p: string): boolean;
  /** Unmounts the run's layer (after the last call). */
  dispose(): Promise<void>;
  /**
   * Mounts the call's view in `callDir`; returns the folder to show at HOME and its removal. `bound`
   * puts a file system of the call's own on `callDir` first (a sized tmpfs: bounded-layers.ts).
   */
  mount(
    callDir: string,
    bound?: (dir: string) => Promise<void>,
  ): Promise<{ merged: string; unmount: () => Promise<void> }>;
}

/** Builds the run's layer in `dir` (below the sandbox's base folder). */
export async function buildHomeLayer(
  privilege: Privilege,
  owner: { uid: number; gid: number },
  plan: HomeViewPlan,
  dir: string,
  workDir: string,
): Promise<HomeLayer> {
  const contents = await layerContents(plan);
  // In memory: it holds empty folders and a few small files, and a disk makes each of the tens of
  // thousands of folders a toolchain has cost a millisecond. Ours to fill, then the sandbox user's.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  await mustAsRoot(privilege, ['mount', '-t', 'tmpfs', '-o', `mode=0700,uid=${process.getuid!()}`, 'prl-home', dir]);
  const lower = path.join(dir, 'lower');
  mkdirSync(lower, { mode: 0o755 });
  // Parents come first (the walk's order), so each folder is one mkdir.
  for (const rel of contents.dirs) mkdirSync(path.join(lower, rel), { mode: 0o755 });
  for (const rel of contents.copies) copyFileSync(path.join(plan.home, rel), path.join(lower, rel));
  // Git refuses a repository owned by someone else ("dubious ownership") unless it is listed;
  // the runner's own ~/.gitconfig is not shown.
  writeFileSync(path.join(lower, OWN_GITCONFIG), `[safe]\n\tdirectory = ${workDir}\n`, { mode: 0o644 });
  await mustAsRoot(privilege, ['chown', '-R', `${owner.uid}:${owner.gid}`, lower]);
  if (contents.whiteouts.length) {
    const whiteouts = contents.whiteouts.map((rel) => path.join(lower, rel));
    await mustAsRoot(privilege, ['sh', '-c', WHITEOUT, 'sh', ...whiteouts]);
  }
  const known = new Set([OWN_GITCONFIG, ...contents.topNames]);
  return {
    plan,
    contents,
    shows(p) {
      const rel = path.relative(plan.home, path.resolve(p));
      return rel !== '' && !rel.startsWith('..') && plan.shared.some((s) => inside(rel, s));
    },
    async dispose() {
      await mustAsRoot(privilege, ['umount', dir]);
    },
    async mount(callDir, bound) {
      // What appeared at HOME's top since the layer was made (a later step's folder) is hidden too.
      const fresh = safeReaddir(plan.home).filter((n) => !known.has(n));
      mkdirSync(callDir, { mode: 0o700 });
      await bound?.(callDir);
      for (const sub of ['upper', 'work', 'merged']) mkdirSync(path.join(callDir, sub), { mode: 0o700 });
      const owns = `${owner.uid}:${owner.gid}`;
      await mustAsRoot(privilege, ['sh', '-c', MOUNT, 'sh', callDir, lower, plan.home, owns, ...fresh]);
      const merged = path.join(callDir, 'merged');
      return {
        merged,
        unmount: async () => {
          await mustAsRoot(privilege, ['sh', '-c', UNMOUNT, 'sh', callDir]);
        },
      };
    },
  };
}

// A whiteout is a character device 0/0: overlayfs shows nothing at its name, whatever a lower
// layer holds there.
const WHITEOUT = 'set -e\nfor p do rm -rf -- "$p"; mknod -- "$p" c 0 0; done';

// The call's own upper layer, owned by the sandbox user: HOME's top is the call's (0700), as a
// fresh HOME was. The real HOME is the lowest layer and is never written.
const MOUNT = [
  'set -e',
  'c=$1 lower=$2 home=$3 owner=$4',
  'shift 4',
  'for p do mknod -- "$c/upper/$p" c 0 0; done',
  'chown "$owner" "$c/upper"',
  'o="lowerdir=$lower:$home,upperdir=$c/upper,workdir=$c/work"',
  // volatile: the upper layer is thrown away, so unmounting need not flush it to disk (30 ms
  // a call otherwise). Kernels before 5.10 do not know it.
  'mount -t overlay overlay -o "$o,volatile" "$c/merged" 2>/dev/null || mount -t overlay overlay -o "$o" "$c/merged"',
].join('\n');

// Everything the call wrote goes with its layer. A mount still busy is detached; one that could not
// be is not crossed by rm (--one-file-system), which then fails and says so.
const UNMOUNT = [
  'c=$1',
  'umount "$c/merged" 2>/dev/null || umount -l "$c/merged" 2>/dev/null',
  '! mountpoint -q "$c" || umount "$c" 2>/dev/null || umount -l "$c"',
  'rm -rf --one-file-system "$c"',
].join('\n');

function parents(rel: string): string[] {
  const out: string[] = [];
  for (let d = path.dirname(rel); d !== '.' && d !== ''; d = path.dirname(d)) out.unshift(d);
  return out;
}

function inside(p: string, dir: string): boolean {
  return p === dir || p.startsWith(`${dir}/`);
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Folders the step's toolchain variables name outside HOME but inside a folder every call hides
 * (a toolchain an earlier step unpacked into RUNNER_TEMP): shown read-only, at their paths.
 */
export function toolchainFoldersElsewhere(env: NodeJS.ProcessEnv, hidden: readonly string[]): string[] {
  const home = env.HOME ? path.resolve(env.HOME) : null;
  const named = TOOLCHAIN_FOLDER_VARIABLES.map((name) => env[name])
    .filter((v): v is string => !!v && path.isAbsolute(v))
    .map((v) => path.resolve(v))
    .filter((v) => !(home && inside(v, home)) && hidden.some((h) => inside(v, h) && v !== h) && isDir(v));
  return [...new Set(named)];
}
