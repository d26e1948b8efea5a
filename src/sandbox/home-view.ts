// The runner's HOME as a sandboxed call sees it: at its own absolute path (PATH names
// `~/.cargo/bin`, and pipx and nvm write absolute paths into their files), holding the folders
// tools keep their toolchains and caches in (tool-rules.ts, the workflow's `home-folders`, the
// folders the step's toolchain variables and PATH name), each shown by its tool's rules, and
// nothing else of it. Tools write there while they run (Cargo's locks and unpacked crates, Go's
// build cache, Gradle's locks); what a call writes stays in that call: a kernel overlay per call,
// whose upper layer is the call's own and is thrown away with it, never reaches the runner's real
// HOME, where later steps run with secrets. A tool's folder a variable moved out of HOME
// (GRADLE_USER_HOME in RUNNER_TEMP or in the checkout) is a view of its own, by the same rules.
//
// A kernel overlay keeps each lower file's owner and mode, so the sandbox user could not create a
// file in a folder the runner owns. So between the call's layer and the real HOME lies a layer
// made once per run: every shown folder again, empty and owned by the sandbox user (a merged
// folder takes its owner and mode from its topmost layer), small lock files copied (tools open
// them to write in place), each registry configuration as its copy stripped of credentials, and a
// whiteout over everything the call must not see: every entry of HOME not shown, every credential,
// every entry a tool's rules do not list, every file others may not read and every folder others
// may not enter (what only the runner may read stays the runner's, whatever its name).
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { TOOLCHAIN_VARIABLES } from '../domain/toolchain-variables.js';
import { walkTree, type TreeEntry } from '../files/tree-walk.js';
import { trustedProgram } from '../process/programs.js';
import { mustAsRoot, type Privilege } from './privilege.js';
import { stripCredentials } from './strip-credentials.js';
import {
  bareNameVerdict,
  classify,
  DEFAULT_FOLDER,
  REGISTRY_FILES,
  rulesBelow,
  TOOL_FOLDERS,
  type Verdict,
} from './tool-rules.js';

/** What one view shows of the folder it is mounted over. */
export interface HomeViewPlan {
  /** The folder shown: the runner's HOME, or a tool's folder a variable moved out of it. */
  home: string;
  /** Folders below it (relative paths; '' is the folder itself) shown by their rules. */
  shared: string[];
  /** Registry files outside every shown folder (`.npmrc`, `.config/go/env`): their stripped copy. */
  files: string[];
  /** Folders a variable moved, with the default place whose rules they keep. */
  moved: { from: string; to: string }[];
  /** Folders that show all they hold but credentials (`home-folders`, PATH folders, caches). */
  open: string[];
  /** The workflow's `!` entries of `home-folders`: never shown. */
  denied: string[];
}

/** The workflow's additions: more folders to share, more names to deny. */
export interface HomeFolders {
  share: readonly string[];
  deny: readonly string[];
}

/** Git refuses a checkout another user owns unless this file lists it; the runner's own is not shown. */
const OWN_GITCONFIG = '.gitconfig';

/** Files tools open to write in place: copied into the run's layer so that the call owns its copy. */
const LOCK_FILE = /(\.lock|\.lck)$|^\.package-cache|^\.global-cache$/;
const LOCK_FILE_MAX_BYTES = 1024 * 1024;
/** A registry configuration larger than this is no hand-written one: hidden, with the hint. */
const REGISTRY_FILE_MAX_BYTES = 256 * 1024;

/** The folders the step's toolchain variables name, with the tool whose rules they keep. */
function toolchainFolders(env: NodeJS.ProcessEnv): { dir: string; tool: string | null }[] {
  return Object.entries(TOOLCHAIN_VARIABLES).flatMap(([name, tool]) => {
    const value = env[name];
    if (tool === null || !value || !path.isAbsolute(value)) return [];
    return [{ dir: path.resolve(value), tool: tool === 'plain' ? null : DEFAULT_FOLDER[tool] }];
  });
}

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
  const moved: { from: string; to: string }[] = [];
  const open = [...extra.share];
  for (const { dir, tool } of toolchainFolders(env)) {
    const rel = belowHome(root, dir);
    if (rel === null) continue;
    if (tool === null) open.push(rel);
    else if (rel !== tool) moved.push({ from: rel, to: tool });
  }
  // The call's PATH below HOME (`~/.local/bin`) is shown through the view, never as it is.
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    const rel = path.isAbsolute(dir) ? belowHome(root, dir) : null;
    if (rel !== null) open.push(rel);
  }
  const shared = [...TOOL_FOLDERS, ...open, ...moved.map((m) => m.from)].map((p) => path.normalize(p));
  return {
    home: root,
    shared: [...new Set(shared)],
    files: [...REGISTRY_FILES],
    moved,
    open: [...new Set(open.map((p) => path.normalize(p)))],
    denied: [...extra.deny],
  };
}

/**
 * The views of tool folders a variable moved out of HOME (CARGO_HOME, GRADLE_USER_HOME in
 * RUNNER_TEMP or in the checkout): each shown by its tool's rules, as at its default place.
 */
export function movedToolFolderPlans(env: NodeJS.ProcessEnv): HomeViewPlan[] {
  const home = env.HOME ? path.resolve(env.HOME) : null;
  const plans: HomeViewPlan[] = [];
  for (const { dir, tool } of toolchainFolders(env)) {
    if (tool === null || (home && inside(dir, home)) || dir === '/' || /[:,\\]/.test(dir) || !realDir(dir)) continue;
    if (plans.some((p) => inside(dir, p.home) || inside(p.home, dir))) continue;
    plans.push({ home: dir, shared: [''], files: [], moved: [{ from: '', to: tool }], open: [], denied: [] });
  }
  return plans;
}

/** `value` (a variable's) as a path below `root`, or null when it names no folder below it. */
function belowHome(root: string, value: string | undefined): string | null {
  if (!value || !path.isAbsolute(value)) return null;
  const rel = path.relative(root, path.resolve(value));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : null;
}

/** The verdict on `rel` (below the plan's folder): at the default place of the folder a variable moved. */
export function verdictOf(plan: HomeViewPlan, rel: string): Verdict {
  if (plan.denied.length && deniedMatcher(plan.denied)(rel)) return { class: 'credential' };
  return classify(canonicalOf(plan, rel), plan.open);
}

/** `rel` at the default place of the tool folder a variable moved, or itself. */
function canonicalOf(plan: HomeViewPlan, rel: string): string {
  const move = plan.moved
    .filter((m) => m.from === '' || inside(rel, m.from))
    .sort((a, b) => b.from.length - a.from.length)[0];
  return move ? [move.to, rel.slice(move.from.length).replace(/^\//, '')].filter(Boolean).join('/') : rel;
}

/**
 * True when every entry below the shown folder `rel` has its verdict, but for a bare name's: no
 * rule, `home-folders` entry, PATH folder or moved folder names anything below it.
 */
export function plainBelow(plan: HomeViewPlan, rel: string): boolean {
  const below = (p: string) => p.startsWith(`${rel}/`) || (rel === '' && p !== '');
  return (
    plan.denied.length === 0 &&
    !plan.open.some(below) &&
    !plan.moved.some((m) => below(m.from)) &&
    !rulesBelow(canonicalOf(plan, rel))
  );
}

/**
 * A test for "`rel` (a path below HOME) matches a denied pattern". The walk visits a folder before
 * what it holds and skips what a hidden folder holds, so only the last name needs testing against
 * a bare name, and a path only against the patterns of its own depth.
 */
const matchers = new WeakMap<readonly string[], (rel: string) => boolean>();
function deniedMatcher(denied: readonly string[]): (rel: string) => boolean {
  let m = matchers.get(denied);
  if (!m) matchers.set(denied, (m = compileDenied(denied)));
  return m;
}

function compileDenied(denied: readonly string[]): (rel: string) => boolean {
  const bare = denied.filter((p) => !p.includes('/'));
  const anyName = bare.length ? new RegExp(`^(?:${bare.map(globSource).join('|')})$`) : null;
  const paths = denied
    .filter((p) => p.includes('/'))
    .map((p) => p.split('/').map((w) => new RegExp(`^${globSource(w)}$`)));
  return (rel) => {
    const parts = rel.split('/');
    if (parts.some((p) => anyName?.test(p))) return true;
    return paths.some((want) => want.length <= parts.length && want.every((w, i) => w.test(parts[i]!)));
  };
}

function globSource(pattern: string): string {
  return pattern
    .split('*')
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
}

/** The verdicts that show an entry (a folder below one may be entered). */
const SHOWN: ReadonlySet<string> = new Set(['toolchain', 'cache', 'settings']);

/** A registry configuration hidden from calls, and what to pass instead (in the log). */
interface HiddenRegistry {
  rel: string;
  pass: string;
}

/** What the run's layer holds, worked out from a walk of the shared folders. */
interface LayerContents {
  /** Folders to make (relative to HOME), parents first. */
  dirs: string[];
  /** Entries hidden (relative to HOME). */
  whiteouts: string[];
  /** Lock files copied (relative to HOME). */
  copies: string[];
  /** Registry configurations shown as their stripped copy (relative to HOME). */
  stripped: { rel: string; text: string }[];
  /** Registry configurations hidden, with what to pass instead. */
  hiddenRegistries: HiddenRegistry[];
  /** The names at HOME's top the layer decided on (shown or hidden); any other is hidden per call. */
  topNames: string[];
}

/** A registry file as a call sees it: its stripped copy, else hidden with the hint. */
function registryFile(
  plan: HomeViewPlan,
  rel: string,
  verdict: Verdict,
  st: { type: string; mode: number; size: number },
  out: LayerContents,
): void {
  const entry = 'entry' in verdict ? verdict.entry : undefined;
  out.whiteouts.push(rel);
  const readable = st.type === 'f' && (st.mode & 0o004) !== 0 && st.size <= REGISTRY_FILE_MAX_BYTES;
  const text = readable && entry?.strip ? readText(path.join(plan.home, rel)) : null;
  const stripped = text !== null && entry?.strip ? stripCredentials(entry.strip, text) : null;
  if (stripped !== null) {
    out.whiteouts.pop();
    out.stripped.push({ rel, text: stripped });
  } else out.hiddenRegistries.push({ rel, pass: entry?.pass ?? 'what the command needs' });
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Walks the plan's shared folders (as the action's user, who owns them on a hosted runner). */
async function layerContents(plan: HomeViewPlan): Promise<LayerContents> {
  const out: LayerContents = { dirs: [], whiteouts: [], copies: [], stripped: [], hiddenRegistries: [], topNames: [] };
  const verdict = (rel: string) => verdictOf(plan, rel);
  const userDenied = plan.denied.length ? deniedMatcher(plan.denied) : () => false;
  const hides = (v: Verdict) => v.class === 'credential' || v.class === 'unlisted';
  const wholeRoot = plan.shared.includes('');
  const isShared = (rel: string) => wholeRoot || plan.shared.some((s) => inside(rel, s));
  const shownAt = [...plan.shared, ...plan.files];
  const leadsToShown = (rel: string) => shownAt.some((s) => inside(s, rel) && s !== rel);
  // The folders above a shared one or a registry file: each shows what leads there and hides the rest.
  const ancestors = wholeRoot
    ? []
    : (['', ...shownAt.flatMap((s) => parents(s))] as string[]).filter((a, i, all) => all.indexOf(a) === i);
  for (const dir of ancestors) {
    if (dir !== '' && (isShared(dir) || userDenied(dir))) continue;
    const abs = path.join(plan.home, dir);
    if (!isDir(abs)) continue;
    if (dir !== '') out.dirs.push(dir);
    for (const name of safeReaddir(abs)) {
      const rel = dir === '' ? name : `${dir}/${name}`;
      if (dir === '') out.topNames.push(name);
      // The layer's own ~/.gitconfig takes the place of the runner's.
      if (rel === OWN_GITCONFIG) continue;
      if (userDenied(rel)) out.whiteouts.push(rel);
      else if (plan.files.includes(rel) && !isShared(rel)) {
        const v = verdict(rel);
        if (v.class === 'registry') registryFile(plan, rel, v, statOf(path.join(plan.home, rel)), out);
        else out.whiteouts.push(rel);
      } else if (!(isShared(rel) || leadsToShown(rel))) out.whiteouts.push(rel);
      else if (isShared(rel) && hides(verdict(rel))) out.whiteouts.push(rel);
    }
  }
  const roots = plan.shared.filter((s) => !plan.shared.some((o) => o !== s && inside(s, o)) && !hides(verdict(s)));
  for (const root of wholeRoot ? [''] : roots) {
    const abs = path.join(plan.home, root);
    if (!existsSync(abs) || !isDir(abs)) continue;
    // find lists a folder's entries right after it: below a hidden folder, skip until they end.
    let hiddenDir: string | null = null;
    // Shown folders below which no rule names anything: their entries need only the bare names.
    const plain = new Map<string, Verdict>();
    for (const e of await walk(abs)) {
      const rel = path.relative(plan.home, e.path);
      if (rel === '') continue;
      if (wholeRoot && !rel.includes('/')) out.topNames.push(rel);
      if (hiddenDir !== null && rel.startsWith(`${hiddenDir}/`)) continue;
      hiddenDir = null;
      const parent = plain.get(rel.includes('/') ? path.dirname(rel) : '');
      const v = parent ? (bareNameVerdict(path.basename(rel)) ?? parent) : verdict(rel);
      if (e.type === 'd' && SHOWN.has(v.class) && (parent !== undefined || plainBelow(plan, rel))) plain.set(rel, v);
      if (rel === root) {
        // The shared folder itself is shown whatever its mode (the list says so).
        if (e.type === 'd') out.dirs.push(rel);
        continue;
      }
      if (hides(v) || (v.class === 'passage' && e.type !== 'd')) {
        out.whiteouts.push(rel);
        if (e.type === 'd') hiddenDir = rel;
      } else if (v.class === 'registry') {
        if (e.type === 'd') {
          out.whiteouts.push(rel);
          out.hiddenRegistries.push({ rel, pass: 'entry' in v ? (v.entry?.pass ?? '') : '' });
          hiddenDir = rel;
        } else registryFile(plan, rel, v, e, out);
      } else if (e.type === 'd') {
        // Below a shown folder, a folder others may not enter keeps everything in it the runner's.
        if ((e.mode & 0o005) !== 0o005) {
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

function statOf(file: string): { type: string; mode: number; size: number } {
  try {
    const st = lstatSync(file);
    return { type: st.isFile() ? 'f' : st.isDirectory() ? 'd' : 'o', mode: st.mode, size: st.size };
  } catch {
    return { type: 'o', mode: 0, size: 0 };
  }
}

/** Every entry below `dir`, parents first, with its type and mode; `find` walks a large cache fast. */
function walk(dir: string): Promise<TreeEntry[]> {
  return walkTree(trustedProgram('find'), [dir]);
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
   * Mounts the call's view in `callDir`; returns the folder to show at the plan's folder and its
   * removal, or null when that folder is no longer a real folder (then it gets no view). `bound`
   * puts a file system of the call's own on `callDir` first (a sized tmpfs: bounded-layers.ts).
   * `above`: read-only layers between the call's own and the run's, topmost first (setup-layer.ts).
   */
  mount(
    callDir: string,
    bound?: (dir: string) => Promise<void>,
    above?: readonly string[],
  ): Promise<{ merged: string; unmount: () => Promise<void> } | null>;
}

/** Builds the run's layer in `dir` (below the sandbox's base folder). */
export async function buildHomeLayer(
  privilege: Privilege,
  owner: { uid: number; gid: number },
  plan: HomeViewPlan,
  dir: string,
  /** The checkout `~/.gitconfig` lists as safe; null for a tool's folder outside HOME. */
  workDir: string | null,
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
  for (const { rel, text } of contents.stripped) writeFileSync(path.join(lower, rel), text, { mode: 0o644 });
  // Git refuses a repository owned by someone else ("dubious ownership") unless it is listed;
  // the runner's own ~/.gitconfig is not shown.
  if (workDir !== null) {
    writeFileSync(path.join(lower, OWN_GITCONFIG), `[safe]\n\tdirectory = ${workDir}\n`, { mode: 0o644 });
  }
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
      if (rel.startsWith('..') || path.isAbsolute(rel)) return false;
      return plan.shared.includes('') || (rel !== '' && plan.shared.some((s) => inside(rel, s)));
    },
    async dispose() {
      await mustAsRoot(privilege, ['umount', dir]);
    },
    async mount(callDir, bound, above = []) {
      // A folder in the checkout that PR code turned into a link since: mounting it would follow
      // the link, as root. Nothing of the PR runs between calls, so the check holds for the call.
      if (!realDir(plan.home)) return null;
      // What appeared at HOME's top since the layer was made (a later step's folder) is hidden too.
      const fresh = safeReaddir(plan.home).filter((n) => !known.has(n));
      mkdirSync(callDir, { mode: 0o700 });
      await bound?.(callDir);
      for (const sub of ['upper', 'work', 'merged']) mkdirSync(path.join(callDir, sub), { mode: 0o700 });
      const owns = `${owner.uid}:${owner.gid}`;
      const lowers = [...above, lower].join(':');
      await mustAsRoot(privilege, ['sh', '-c', MOUNT, 'sh', callDir, lowers, plan.home, owns, ...fresh]);
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
// fresh HOME was. $2 is the read-only layers above the real HOME, topmost first (setup's, then the
// run's). The real HOME is the lowest layer and is never written.
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

/** A folder, not a link to one, at a path with no link in it. */
function realDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory() && realpathSync(p) === path.resolve(p);
  } catch {
    return false;
  }
}

/**
 * Folders the step's toolchain variables name outside HOME but inside a folder every call hides
 * (a toolchain an earlier step unpacked into RUNNER_TEMP), that no tool's rules cover (JAVA_HOME):
 * shown read-only, at their paths. A tool's folder there has a view of its own instead.
 */
export function toolchainFoldersElsewhere(env: NodeJS.ProcessEnv, hidden: readonly string[]): string[] {
  const home = env.HOME ? path.resolve(env.HOME) : null;
  const named = toolchainFolders(env)
    .filter(({ dir, tool }) => tool === null && !(home && inside(dir, home)))
    .map(({ dir }) => dir)
    .filter((v) => hidden.some((h) => inside(v, h) && v !== h) && isDir(v));
  return [...new Set(named)];
}
