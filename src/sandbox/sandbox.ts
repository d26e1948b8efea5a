// Every process that runs on PR-influenced content (agent CLIs, verify commands, hooks) goes
// through a Sandbox. Scrubbing a child's environment cannot protect the token: any process of
// the action's own user can read the action's /proc/<pid>/environ and /proc/<pid>/mem. A
// process of ANOTHER unprivileged user cannot (proc(5): both need ptrace access, which a
// different uid without CAP_SYS_PTRACE lacks). On top of the separate user, each call runs in
// namespaces of its own (bubblewrap.ts, mount-view.ts): its processes end with it, it has a
// private /tmp and a fresh HOME, and it sees only the folders it needs.
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess, type ProcessResult, type ProcessSpec, type RunAs } from '../process/process.js';
import { AccessGrants, untrackedEntries } from './access.js';
import { ensureNamespaces } from './bubblewrap.js';
import { hiddenFolders } from './hidden-folders.js';
import {
  buildHomeLayer,
  homeViewPlan,
  movedToolFolderPlans,
  toolchainFoldersElsewhere,
  type HomeFolders,
  type HomeLayer,
  type HomeViewPlan,
} from './home-view.js';
import { killAllOf, killMarked } from './kill.js';
import { defaultCallLimits, describeBounds, detectBounding, removeCgroups } from './call-limits.js';
import { copyWatchdog, describeLayers, watchdogArgs } from './call-limits.js';
import { BoundedStateFolders, filledLayers, mountBoundedTmpfs, onePerDisk } from './bounded-layers.js';
import { unmountBoundedTmpfs } from './bounded-layers.js';
import type { CallLimits } from './call-limits.js';
import { bwrapArgs, inside, PRIVATE_TMP, type MountView } from './mount-view.js';
import { namedPaths } from './named-paths.js';
import { nestedGitEntries, restoreNestedGit, type NestedGit } from './nested-git.js';
import { asRoot, detectPrivilege, mustAsRoot, type Privilege } from './privilege.js';
import { SetupHome, type SetupHomeUse } from './setup-layer.js';
import { startedInItsSandbox } from './set-up-retry.js';
import type { SandboxRecord } from './leftover.js';
import { createSandboxUser, deleteSandboxUser, type SandboxUser } from './user.js';

/** What one call may touch besides reading what is readable to everyone. */
export interface CallAccess {
  /** A checkout the call may write (what its tree tracks and what the run created; never `.git`). */
  workTree?: string;
  /** Folders the call owns while it runs (a CLI state home, a hook's scratch folder). */
  owned?: readonly string[];
  /** Folders the call may read (a context folder the action wrote 0700). */
  readable?: readonly string[];
  /** Paths a trusted command line names (named-paths.ts): shown read-only, owner and mode unchanged. */
  shown?: readonly string[];
  /** What the call sees of what setup wrote in the runner's HOME (setup-layer.ts); none when absent. */
  setupHome?: SetupHomeUse;
}

export interface Sandbox {
  /** Null when calls run as the action's own user; then `reason` says why. */
  readonly user: string | null;
  readonly reason: string;
  /** What does not hold because no namespace could be made (empty when every call has its own). */
  readonly limits: readonly string[];
  /** What the log and summary say of each call's bounds: null when calls are bounded. */
  readonly unbounded: string | null;
  /** True when each call has a /tmp of its own that goes with it (namespaces); false where calls share ours. */
  readonly privateTmp: boolean;
  run(spec: ProcessSpec, access: CallAccess): Promise<ProcessResult>;
  /** Setup runs (again): what its earlier calls wrote in HOME goes, and its calls start anew. */
  forgetSetupHome(): Promise<void>;
  /** Kills what is left, gives everything back, deletes the user. Idempotent; throws naming what failed. */
  close(): Promise<void>;
}

export type IsolationMode = 'auto' | 'required' | 'off';

export interface SandboxOptions {
  log?: (line: string) => void;
  /** The action's environment: where the runner keeps what calls must not see. */
  env?: NodeJS.ProcessEnv;
  /** false: no namespaces, as where bubblewrap cannot run (how tests reach that path). */
  namespaces?: boolean;
  /** Each call's bounds (call-limits.ts); defaultCallLimits() when absent. */
  callLimits?: CallLimits;
  /** Told the sandbox user as soon as it exists, for the post step after a kill (leftover.ts). */
  record?: (record: SandboxRecord) => void;
  /** The workflow's `home-folders`: more of the runner's HOME to show, more to deny (home-view.ts). */
  homeFolders?: HomeFolders;
}

/** Calls run as the action's own user: the token is readable through /proc (docs/security.md). */
function unisolated(reason: string): Sandbox {
  return {
    user: null,
    reason,
    limits: [],
    unbounded: null,
    privateTmp: false,
    run: (spec) => runProcess(spec),
    forgetSetupHome: async () => {},
    close: async () => {},
  };
}

class IsolationUnavailable extends Error {}

/** What the separate user alone cannot promise; listed when no namespace can be made. */
const WITHOUT_NAMESPACES = [
  'a process a call starts can outlive the call until the sweep after it (processes of the sandbox user are killed)',
  'calls share /tmp, and see RUNNER_TEMP and other checkouts where their modes allow',
];

/** The run's sandbox; throws IsolationUnavailable when `required` cannot be met. */
export async function createSandbox(mode: IsolationMode, workDir: string, opts: SandboxOptions = {}): Promise<Sandbox> {
  if (mode === 'off') return unisolated('isolation is off (input isolation: off)');
  const log = opts.log ?? (() => undefined);
  const found = await detectPrivilege();
  let reason = found.privilege === null ? found.reason : '';
  if (found.privilege !== null) {
    const namespaces =
      opts.namespaces === false
        ? { ok: false as const, reason: 'namespaces are off for this sandbox' }
        : await ensureNamespaces(found.privilege, log);
    if (!namespaces.ok && mode === 'required') {
      throw new IsolationUnavailable(`isolation: required, but ${namespaces.reason}`);
    }
    let user: SandboxUser | null = null;
    try {
      // Where calls will see the runner's HOME, the account's home is that path (user.ts says why).
      const viewed = namespaces.ok ? homeViewPlan(opts.env ?? process.env, opts.homeFolders)?.home : undefined;
      user = await createSandboxUser(found.privilege, viewed);
      opts.record?.({ ...user, workDir });
      const before = new Set(await untrackedEntries(workDir));
      if (before.size) {
        const some = [...before].slice(0, 10).join(', ');
        log(
          `isolation: ${before.size} untracked entries were in the checkout before the run and keep their owner ` +
            `and mode (the sandbox writes only what the PR tracks and what its calls create): ${some}` +
            `${before.size > 10 ? ', …' : ''}`,
        );
      }
      const script = await copyWatchdog(user.base);
      const bounds = opts.callLimits ?? defaultCallLimits();
      const bounding = namespaces.ok
        ? await detectBounding(found.privilege)
        : { kind: null, reason: 'calls run without namespaces, so no watchdog starts them' };
      log(`isolation: ${describeBounds(bounds, bounding)}`);
      if (namespaces.ok) log(`isolation: ${describeLayers(bounds)}`);
      const env = opts.env ?? process.env;
      const hidden = hiddenFolders(env);
      // Built while the run prepares (a walk of the tool folders); the first call waits for it.
      const home = namespaces.ok
        ? homeView(found.privilege, user, homeViewPlan(env, opts.homeFolders), workDir, log)
        : null;
      const jail =
        namespaces.ok && home
          ? {
              bwrap: namespaces.bwrap,
              hidden,
              watchdog: (call: number, disks: readonly string[]) =>
                watchdogArgs(script, bounding.kind ?? 'none', `${user!.name}-call-${call}`, bounds, disks),
              homeBytes: bounds.homeBytes,
              stateFolders: new BoundedStateFolders(found.privilege, user.name, bounds.homeBytes),
              home,
              setupHome: home.then((l) => (l ? new SetupHome(found.privilege, user!, l.plan, user!.base) : null)),
              movedRoots: movedToolFolderPlans(env).map((plan) => plan.home),
              moved: Promise.all(
                movedToolFolderPlans(env).map((plan, i) =>
                  homeView(found.privilege, user!, plan, null, log, `tool-layer-${i}`),
                ),
              ).then((layers) => layers.filter((l): l is HomeLayer => l !== null)),
              toolchains: toolchainFoldersElsewhere(env, hidden),
              runnerHome: env.HOME && path.isAbsolute(env.HOME) ? path.resolve(env.HOME) : null,
            }
          : null;
      const limits = namespaces.ok ? [] : [namespaces.reason];
      const unbounded = bounding.kind === null ? describeBounds(bounds, bounding) : null;
      const nested = await nestedGitEntries(workDir);
      return await isolated(found.privilege, user, { workDir, before, nested }, jail, { limits, unbounded }, log);
    } catch (e) {
      // Nothing of a sandbox that could not be made stays behind.
      if (user) await deleteSandboxUser(found.privilege, user).catch(() => undefined);
      reason = `creating the sandbox user failed: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  if (mode === 'required') throw new IsolationUnavailable(`isolation: required, but ${reason}`);
  return unisolated(reason);
}

async function isolated(
  privilege: Privilege,
  user: SandboxUser,
  checkout: { workDir: string; before: ReadonlySet<string>; nested: NestedGit },
  namespaced: Jail | null,
  notes: { limits: string[]; unbounded: string | null },
  log: (line: string) => void,
): Promise<Sandbox> {
  const namespaceFailure = notes.limits;
  const { workDir, before, nested } = checkout;
  const grants = new AccessGrants(privilege, user);
  await grants.traverse(user.base);
  let active = 0;
  let calls = 0;
  let closed = false;
  let closing: Promise<void> | undefined;
  // Calls between their check of `closed` and their process's start (or, cancelled, until they have
  // given back what they took): close() waits for them, so none starts once it has begun.
  const settingUp = new Set<Promise<void>>();
  // Without namespaces: the sweep that kills every process of the user; a call starting meanwhile waits for it.
  let sweeping: Promise<void> | null = null;
  const runAs: RunAs = { uid: user.uid, gid: user.gid, killMarked: (m: string) => killMarked(privilege, m) };
  if (privilege === 'sudo') runAs.sudoUser = user.name;
  return {
    user: user.name,
    reason: '',
    limits: namespaceFailure.length ? [...namespaceFailure, ...WITHOUT_NAMESPACES] : [],
    unbounded: notes.unbounded,
    privateTmp: namespaced !== null,
    async run(spec, access) {
      while (sweeping) await sweeping;
      if (closed) throw new Error('the sandbox is closed');
      active++;
      let setUpDone = (): void => undefined;
      const setUp = new Promise<void>((resolve) => (setUpDone = resolve));
      settingUp.add(setUp);
      const leaveSetUp = (): void => {
        settingUp.delete(setUp);
        setUpDone();
      };
      const giveBack: Array<() => Promise<void>> = [];
      try {
        const call = ++calls;
        const callDir = path.join(user.base, `call-${call}`);
        let home = callDir;
        // The views this call mounts: the runner's HOME, and the tool folders moved out of it.
        const views: ShownView[] = [];
        const layer = namespaced ? await namespaced.home : null;
        // A call that cannot write the checkout writes to memory of a fixed size (bounded-layers.ts).
        const inMemory = namespaced && !access.workTree ? namespaced : null;
        const bound = inMemory
          ? (dir: string) => mountBoundedTmpfs(privilege, dir, inMemory.homeBytes, user.name)
          : undefined;
        // Setup's layers this call sees, held until its view is gone (released last).
        const setupHome = layer && access.setupHome ? await namespaced!.setupHome : null;
        const lent = setupHome?.lend(access.setupHome!);
        if (lent) giveBack.push(lent.release);
        const homeMount = layer ? await layer.mount(callDir, bound, lent?.lowers) : null;
        if (layer && homeMount) {
          giveBack.push(homeMount.unmount);
          if (setupHome && access.setupHome === 'record') {
            giveBack.push(() => keepSetupLayer(privilege, setupHome, callDir, homeMount.merged, log));
          }
          home = layer.plan.home;
          views.push({ layer, source: homeMount.merged });
        } else {
          giveBack.push(await freshHome(privilege, user, home, workDir, bound));
        }
        if (inMemory) await inMemory.stateFolders.bound(access.owned ?? []);
        for (const [i, moved] of ((namespaced ? await namespaced.moved : []) ?? []).entries()) {
          const view = await moved.mount(`${callDir}-tool-${i}`, bound);
          if (!view) continue;
          giveBack.push(view.unmount);
          views.push({ layer: moved, source: view.merged });
        }
        const reached = [spec.cwd, ...(access.owned ?? []), ...(access.readable ?? [])];
        await grants.traverse(...reached, ...(spec.command.startsWith('/') ? [spec.command] : []));
        for (const dir of access.readable ?? []) await grants.readable(dir);
        giveBack.push(await grants.own(access.owned ?? []));
        if (access.workTree) giveBack.push(await grants.workTree(access.workTree, before));
        const env = withUserEnv(spec.env, user, home, access.owned ?? []);
        const jail = namespaced
          ? jailArgs(namespaced, user, { ...spec, env }, access, {
              fresh: views.length && views[0]!.layer === layer ? null : home,
              views,
            })
          : undefined;
        // What a writing call writes to disk: its layer over HOME, the checkout, its own folders.
        const disks = inMemory
          ? []
          : onePerDisk([callDir, ...(access.workTree ? [access.workTree] : []), ...(access.owned ?? [])]);
        const watched = namespaced ? { watchdog: namespaced.watchdog(call, disks) } : {};
        // A cancel (close()) may have come during the awaited set-up: checked again right before the
        // spawn, which runProcess does before it first awaits, so close()'s kill comes after it.
        if (closed) throw new Error('the sandbox is closed');
        leaveSetUp();
        // A call whose bubblewrap failed in its own set-up, before its command started, starts again
        // (set-up-retry.ts); never once close() has begun.
        const again = { call, mayStart: () => !closed, log };
        const result = jail
          ? await startedInItsSandbox(
              jail,
              (j) => runProcess({ ...spec, env, runAs: { ...runAs, jail: j, ...watched } }),
              again,
            )
          : await runProcess({ ...spec, env, runAs });
        return inMemory ? withFilledLayers(result, callDir, access.owned ?? [], inMemory.homeBytes) : result;
      } finally {
        try {
          active--;
          // Without namespaces, and only when no other call of the user runs (reviewers run in
          // parallel): then nothing of the user may live on, whatever it did to hide.
          if (!namespaced && active === 0) {
            sweeping = killAllOf(privilege, user.uid).finally(() => (sweeping = null));
            await sweeping;
          }
          for (const undo of giveBack.reverse()) await undo();
          if (access.workTree === workDir) {
            const { put, refused } = await restoreNestedGit(privilege, access.workTree, nested, log);
            if (put.length) log(`isolation: put back the nested .git entries a call changed: ${put.join(', ')}`);
            if (refused.length) log(`isolation: not put back, their folder is gone: ${refused.join(', ')}`);
          }
        } finally {
          leaveSetUp();
        }
      }
    },
    async forgetSetupHome() {
      await (await namespaced?.setupHome)?.forget();
    },
    close() {
      // One close for every caller: a cancelled run starts it early, and the run's end must wait for it.
      closed = true;
      closing ??= (async () => {
        await Promise.all(settingUp);
        await killAllOf(privilege, user.uid);
        await removeCgroups(privilege, user.name);
        await (await namespaced?.setupHome)?.forget();
        await (await namespaced?.home)?.dispose();
        for (const moved of (await namespaced?.moved) ?? []) await moved.dispose();
        await namespaced?.stateFolders.unmountAll();
        await grants.restore();
        await deleteSandboxUser(privilege, user);
      })();
      return closing;
    },
  };
}

/**
 * What a read-only call filled to its bound (`home=`) is said after its output, as the watchdog says
 * a bound it stopped the call at: "no space left" alone would not say which bound, or that it is one.
 */
function withFilledLayers(
  result: ProcessResult,
  callDir: string,
  owned: readonly string[],
  homeBytes: number,
): ProcessResult {
  const filled = filledLayers([callDir, ...owned]).map((d) => (d === callDir ? 'HOME' : 'its state folder'));
  if (filled.length === 0) return result;
  const size = `${Math.round(homeBytes / 1024 ** 2)} MiB`;
  const line =
    `pr-review-loop: this call reached its bound on home (input call-limits): it filled ${filled.join(' and ')}, ` +
    `${size} each for a call that cannot write the checkout`;
  return {
    ...result,
    stderr: `${result.stderr}${result.stderr.endsWith('\n') || !result.stderr ? '' : '\n'}${line}\n`,
  };
}

/**
 * What a setup call wrote in HOME, made one of setup's layers for later calls (setup-layer.ts), its
 * view unmounted first. Setup's outcome does not hang on it: where it fails, the writes go with the
 * call as any call's do, and the log says so.
 */
async function keepSetupLayer(
  privilege: Privilege,
  setupHome: SetupHome,
  callDir: string,
  merged: string,
  log: (line: string) => void,
): Promise<void> {
  try {
    const off = await asRoot(privilege, ['umount', '--', merged]);
    if (off.code !== 0) throw new Error(`its view is still in use (${off.stderr.trim()})`);
    const kept = await setupHome.record(path.join(callDir, 'upper'));
    if (!kept) return;
    const parts = [
      `verify commands and hooks see it, the fixer and the confirmer only ${kept.caches.join(', ') || 'no cache'}`,
      ...(kept.dropped.length ? [`dropped (credentials, git configuration): ${kept.dropped.join(', ')}`] : []),
      ...(kept.stripped.length ? [`stripped of credentials: ${kept.stripped.join(', ')}`] : []),
    ];
    log(`isolation: what setup wrote in HOME stays for later calls, read-only; ${parts.join('; ')}`);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    log(`isolation: what setup wrote in HOME goes with its call, as any call's writes: ${why}`);
  }
}

/** A HOME of the call's own, gone when the call ends: nothing one call plants there reaches the next. */
async function freshHome(
  privilege: Privilege,
  user: SandboxUser,
  home: string,
  workDir: string,
  bound?: (dir: string) => Promise<void>,
): Promise<() => Promise<void>> {
  await mkdir(home, { mode: 0o700 });
  await bound?.(home);
  // Git refuses a repository owned by someone else ("dubious ownership") unless it is listed.
  await writeFile(path.join(home, '.gitconfig'), `[safe]\n\tdirectory = ${workDir}\n`, { mode: 0o644 });
  await mustAsRoot(privilege, ['chown', '-R', `${user.uid}:${user.gid}`, home]);
  return async () => {
    if (bound) await unmountBoundedTmpfs(privilege, home);
    await mustAsRoot(privilege, ['rm', '-rf', '--one-file-system', home]);
  };
}

/** How each call is jailed: bubblewrap, what it hides, and what of the runner's HOME it shows. */
interface Jail {
  bwrap: string;
  hidden: string[];
  /** The call's root watchdog (call-limits.ts), up to its stdin file; `disks`: folders it holds above the floor. */
  watchdog: (call: number, disks: readonly string[]) => string[];
  /** The size of each tmpfs a read-only call writes to (`home=`). */
  homeBytes: number;
  /** The state folders of read-only calls' agents, each on a tmpfs of its own. */
  stateFolders: BoundedStateFolders;
  /** The run's layer of the runner's HOME; null where HOME is not shown (then each call gets an empty one). */
  home: Promise<HomeLayer | null>;
  /** What setup wrote in that HOME, for later calls; null where HOME is not shown. */
  setupHome: Promise<SetupHome | null>;
  /** The layers of tool folders a variable moved out of HOME (home-view.ts). */
  moved: Promise<HomeLayer[]>;
  /** Those folders, each hidden in a call that could not mount its view. */
  movedRoots: string[];
  /** The runner's HOME: a PATH folder below it is shown through the view or not at all. */
  runnerHome: string | null;
  /** Folders toolchain variables name in a hidden folder outside HOME: shown read-only. */
  toolchains: string[];
}

/** A view a call mounts: its run's layer and the call's merged folder, shown at the layer's folder. */
interface ShownView {
  layer: HomeLayer;
  source: string;
}

/** The run's layer of one view (the runner's HOME, a moved tool folder), or null (logged) where it cannot be made. */
async function homeView(
  privilege: Privilege,
  user: SandboxUser,
  plan: HomeViewPlan | null,
  workDir: string | null,
  log: (line: string) => void,
  name = 'home-layer',
): Promise<HomeLayer | null> {
  if (!plan) return null;
  const what = workDir !== null ? "the runner's HOME" : `the tool folder ${plan.home}`;
  let layer: HomeLayer | null = null;
  try {
    layer = await buildHomeLayer(privilege, user, plan, path.join(user.base, name), workDir);
    // One mount now: a kernel without overlayfs (or a runner that refuses it) falls back here, not mid-run.
    const probe = await layer.mount(path.join(user.base, `${name}-probe`));
    await probe?.unmount();
    const shown = plan.shared.filter((s) => s !== '' && existsSync(path.join(plan.home, s)));
    const { stripped, hiddenRegistries, whiteouts } = layer.contents;
    log(
      `isolation: calls see ${what} (${plan.home})` +
        (workDir !== null ? ` with ${shown.join(', ') || 'no tool folders'}` : '') +
        `; what they write there stays in the call; ${whiteouts.length} entries hidden ` +
        '(credentials, what no tool rule lists, files only the runner may read, everything else of HOME)',
    );
    if (stripped.length) {
      log(`isolation: registry configuration shown stripped of credentials: ${stripped.map((f) => f.rel).join(', ')}`);
    }
    for (const hidden of hiddenRegistries) {
      log(
        `isolation: ${path.join(plan.home, hidden.rel)} is hidden from calls (it may hold credentials, ` +
          `or cannot be read to strip them); pass ${hidden.pass} through \`verify-env\` instead`,
      );
    }
    return layer;
  } catch (e) {
    log(
      `isolation: ${what} cannot be shown to calls (${e instanceof Error ? e.message : String(e)}); ` +
        (workDir !== null ? 'each call gets an empty HOME of its own instead' : 'calls do not see it'),
    );
    await layer?.dispose().catch(() => undefined);
    return null;
  }
}

/** bubblewrap, then setpriv to become the user with no way back to more rights. */
function jailArgs(
  jail: Jail,
  user: SandboxUser,
  spec: ProcessSpec,
  access: CallAccess,
  home: { fresh: string | null; views: ShownView[] },
): string[] {
  const { bwrap } = jail;
  // A moved tool folder whose view this call could not mount is hidden whole.
  const unviewed = jail.movedRoots.filter(
    (r) => !home.views.some((v) => v.layer.plan.home === r) && isRealDir(r) && !inside(r, spec.cwd),
  );
  const hidden = [...jail.hidden, ...unviewed];
  // A toolchain variable (CARGO_HOME) names a shown folder: the view shows it, with writes kept
  // in the call; mounting the real folder as it is over it would show what the view hides.
  const viewOf = (p: string) => home.views.find((v) => v.layer.shows(p));
  const writable = [...(access.workTree ? [access.workTree] : []), ...(access.owned ?? [])];
  if (home.fresh) writable.push(home.fresh);
  // A folder on PATH outside the checkout is never writable in a call, even where its mode lets
  // everyone write (an image's /usr/local/bin 0777): a program planted there would run in later calls
  // and in the job's later steps. One inside the checkout is the PR's to write, like the rest of it;
  // the action never takes a program from there (programs.ts). So nothing named is mounted as it is
  // at or below one, and one below a named path is mounted read-only again over it.
  const onPath = pathFolders(spec);
  const underPath = (p: string) => onPath.some((d) => inside(p, d) || inside(realpathOrSelf(p), d));
  const asIs = shownPaths(spec, access, hidden).filter((p) => !underPath(p) && !viewOf(p));
  const coveredPath = onPath.filter((d) => asIs.some((p) => inside(d, p) || inside(d, realpathOrSelf(p))));
  // A PATH folder in a view (`~/.local/bin`) is that view's folder, read-only: the real folder
  // bound over it would show what the view's rules hide.
  const viewedPath = onPath.flatMap((d) => {
    const v = viewOf(d);
    const source = v && path.join(v.source, path.relative(v.layer.plan.home, d));
    return source && existsSync(source) ? [{ target: d, source }] : [];
  });
  const view: MountView = {
    hidden,
    writable,
    readOnly: [
      spec.cwd,
      ...(access.readable ?? []),
      ...programFolders(spec, hidden).filter(
        (p) => !(onPath.includes(p) && (viewOf(p) || (jail.runnerHome && inside(p, jail.runnerHome)))),
      ),
      ...coveredPath.filter((p) => !viewOf(p)),
      ...jail.toolchains,
      ACTION_ROOT,
    ].filter((p) => existsSync(p)),
    asIs,
    protectedPaths: access.workTree ? [path.join(access.workTree, '.git')].filter((p) => existsSync(p)) : [],
    cwd: spec.cwd,
    replaced: home.views.map((v) => ({ target: v.layer.plan.home, source: v.source })),
    readOnlyFrom: viewedPath,
  };
  const setpriv = ['/usr/bin/setpriv', '--reuid', String(user.uid), '--regid', String(user.gid), '--clear-groups'];
  return [bwrap, ...bwrapArgs(view), '--', ...setpriv, '--no-new-privs', '--'];
}

function isRealDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory() && realpathSync(p) === path.resolve(p);
  } catch {
    return false;
  }
}

/** The folders of the call's PATH outside its checkout, links resolved. */
function pathFolders(spec: ProcessSpec): string[] {
  const dirs = (spec.env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d) && existsSync(d));
  return [...new Set(dirs.map((d) => realpathOrSelf(d)))].filter((d) => !inside(d, spec.cwd));
}

/**
 * What the call must be able to run though it lies in a hidden folder: the command's install
 * (a CLI's npm prefix: the folder above its node_modules) and the folders of its PATH.
 */
function programFolders(spec: ProcessSpec, hidden: readonly string[]): string[] {
  const found: string[] = [];
  if (path.isAbsolute(spec.command) && existsSync(spec.command)) {
    const real = realpathSync(spec.command);
    const modules = real.indexOf(`${path.sep}node_modules${path.sep}`);
    found.push(modules > 0 ? real.slice(0, modules) : path.dirname(real));
  }
  for (const dir of (spec.env.PATH ?? '').split(path.delimiter)) {
    // A folder in the checkout is shown with it; resolving a link the PR put there could lead anywhere.
    if (path.isAbsolute(dir) && existsSync(dir) && !inside(dir, spec.cwd)) found.push(realpathSync(dir));
  }
  // A folder outside the hidden ones and the private /tmp is visible anyway; a hidden folder itself
  // is never shown whole (a CLI cache under /tmp is: a private clone's tests keep theirs there).
  return found.filter((p) => [...hidden, ...PRIVATE_TMP].some((h) => inside(p, h) && p !== h));
}

/**
 * What a trusted command line and the call's variables (all set by the workflow or by us) name,
 * except a hidden folder, a private /tmp, or a folder above one of them.
 */
function shownPaths(spec: ProcessSpec, access: CallAccess, hidden: readonly string[]): string[] {
  const named = [...(access.shown ?? []), ...namedPaths(Object.values(spec.env).join('\n'))];
  // A path in the checkout is shown with it: mounting it again would follow a link the PR put there
  // (into .git, or out of the checkout).
  const checkouts = [spec.cwd, ...(access.workTree ? [access.workTree] : [])];
  return named.filter(
    (p) =>
      ![...hidden, ...PRIVATE_TMP].some((h) => inside(h, p)) &&
      !checkouts.some((c) => inside(p, c) || inside(realpathOrSelf(p), c)),
  );
}

function realpathOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The action's own files (public code: the bundle, its prompts, in tests the scripted agents). */
const ACTION_ROOT = findActionRoot();

function findActionRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'action.yml')) && dir !== path.dirname(dir)) dir = path.dirname(dir);
  return dir;
}

/** HOME is the call's fresh one unless the caller chose a folder the call owns (a CLI state home). */
function withUserEnv(env: NodeJS.ProcessEnv, user: SandboxUser, home: string, owned: readonly string[]) {
  const chosen = env.HOME && owned.some((o) => env.HOME === o || env.HOME!.startsWith(`${o}/`)) ? env.HOME : home;
  return { ...env, HOME: chosen, USER: user.name, LOGNAME: user.name };
}
