// The bounds of each sandboxed call, kept by a cgroup of its own that its root watchdog makes
// (src/process/call-watchdog.sh): its memory, tmpfs pages included (a call's /tmp and /dev/shm are
// memory that belongs to no process, so without a bound the kernel's OOM killer would pick another
// process: a CLI, the action, the runner); its number of processes (a fork bomb); and its CPU
// weight, below the action's, so the action and the runner stay responsive beside it.
import { existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile } from 'node:fs/promises';
import { totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asRoot, type Privilege } from './privilege.js';

export interface CallLimits {
  /** Bytes, or null for no bound. */
  memoryBytes: number | null;
  /** Processes and threads, or null for no bound. */
  pids: number | null;
  /** cgroup v2 cpu.weight (1..10000; the default of every other cgroup is 100). */
  cpuWeight: number;
  /**
   * Bytes a read-only call (a reviewer, the analyzer, the gate) may write to its layer over HOME,
   * and again to its agent's state folder: each a tmpfs of this size, whose pages count in its memory.
   */
  homeBytes: number;
  /**
   * Bytes kept free on each disk a writing call (verify, hooks, the fixer) writes to: the watchdog
   * stops a call that takes a disk below it. 0: no floor.
   */
  diskFloorBytes: number;
  /** Milliseconds for all the `setup` commands together, and again for the head's test run. */
  setupMs: number;
}

/**
 * Sized for a GitHub-hosted runner (7 to 16 GB, 2 to 4 cores), where reviewers run side by side:
 * half the machine's memory, 4096 processes and threads (a large build's threads fit), and half the
 * CPU weight of the action's own processes.
 * `home=256M`: a read-only call of each CLI (reviews of two rounds, a session resumed) wrote at most
 * 18 MiB to HOME (OpenCode) and 1.2 MiB to its state folder (Claude Code, Codex and Gemini CLI less),
 * measured with bounded-layers.ts's tmpfs, so a long session has room fourteen times over; a state
 * folder lasts the run, so a panel of six agents holds at most 1.5 GiB of memory that way.
 * `disk=1G`: the watchdog looks four times a second, and a call writing 70 to 170 MiB/s went 34 to
 * 119 MiB below the floor before it stopped (measured here); at 1 GiB/s it would go 256 MiB, which
 * still leaves three quarters of a GiB for the action's end (report, commit, push) and later steps.
 * `setup=10m`: ten minutes install most projects from a registry.
 */
const DEFAULT_WORDS: Readonly<Record<LimitKey, string>> = {
  memory: '50%',
  pids: '4096',
  'cpu-weight': '50',
  home: '256M',
  disk: '1G',
  setup: '10m',
};

type LimitKey = 'memory' | 'pids' | 'cpu-weight' | 'home' | 'disk' | 'setup';
const KEYS = Object.keys(DEFAULT_WORDS) as LimitKey[];

/** The default as the `call-limits` input writes it (action.yml documents it). */
export const DEFAULT_CALL_LIMITS = Object.entries(DEFAULT_WORDS)
  .map(([key, value]) => `${key}=${value}`)
  .join(' ');

/** The bounds of a call when `call-limits` is not given, read on this machine. */
export function defaultCallLimits(machineBytes = totalmem()): CallLimits {
  return parseCallLimits('', machineBytes);
}

/** Parses the `call-limits` input; throws naming the input and showing a valid value. */
export function parseCallLimits(text: string, machineBytes = totalmem()): CallLimits {
  const given = new Map<LimitKey, string>();
  for (const word of text.split(/[\s,]+/).filter(Boolean)) {
    const m = /^([a-z-]+)=(\S+)$/.exec(word);
    if (!m || !KEYS.includes(m[1] as LimitKey)) {
      const keys = KEYS.map((k) => `${k}=…`);
      throw new Error(`call-limits: "${word}" is not ${keys.slice(0, -1).join(', ')} or ${keys.at(-1)}`);
    }
    given.set(m[1] as LimitKey, m[2]!);
  }
  const value = (key: LimitKey) => given.get(key) ?? DEFAULT_WORDS[key];
  return {
    memoryBytes: memory(value('memory'), machineBytes),
    pids: whole(value('pids'), 'pids', 16, 4_194_304),
    cpuWeight: whole(value('cpu-weight'), 'cpu-weight', 1, 10_000) ?? 100,
    homeBytes: sizeAtLeast(value('home'), 16 * MIB, 'home=…: a size of 16M or more (256M)'),
    diskFloorBytes: sizeAtLeast(value('disk'), 0, 'disk=…: a size to keep free (2G), or 0 for no floor'),
    setupMs: duration(value('setup')),
  };
}

const MIB = 1024 ** 2;

/** `90s`, `10m`, `1h`: from 10 seconds to 6 hours (the longest a GitHub-hosted job runs). */
function duration(v: string): number {
  const m = /^(\d+)([smh])$/.exec(v);
  const ms = m ? Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 's' | 'm' | 'h'] : NaN;
  if (!(ms >= 10_000 && ms <= 6 * 3_600_000))
    throw new Error(`call-limits: setup=${v} is not a time from 10s to 6h, in s, m or h (10m)`);
  return ms;
}

function memory(v: string, machineBytes: number): number | null {
  if (v === 'max') return null;
  const pct = /^(\d{1,3})%$/.exec(v);
  if (pct && Number(pct[1]) >= 1 && Number(pct[1]) <= 100) return Math.floor((machineBytes * Number(pct[1])) / 100);
  return sizeAtLeast(v, 64 * MIB, 'memory=…: a size of 64M or more (4G), a share (50%) or max');
}

/** `v` (`512M`, `4G`, bytes) in bytes; throws with `valid` when it is no size or below `min`. */
function sizeAtLeast(v: string, min: number, valid: string): number {
  const size = /^(\d+)([KMG]?)$/i.exec(v);
  const unit = { '': 1, K: 1024, M: MIB, G: 1024 ** 3 }[(size?.[2] ?? '').toUpperCase() as '' | 'K' | 'M' | 'G'];
  const bytes = size ? Number(size[1]) * unit : NaN;
  if (!(bytes >= min)) throw new Error(`call-limits: ${valid.split('=')[0]}=${v} is not ${valid.split(': ')[1]}`);
  return bytes;
}

function whole(v: string, key: string, min: number, max: number): number | null {
  if (v === 'max' && key === 'pids') return null;
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!(n >= min && n <= max))
    throw new Error(`call-limits: ${key}=${v} is not a whole number ${min}..${max}${key === 'pids' ? ' or max' : ''}`);
  return n;
}

/** Which cgroup interface the watchdog writes: the unified one (v2), the per-controller one (v1). */
export type CgroupKind = 'v2' | 'v1';

/** Whether calls can be bounded here, and what is not bounded when they cannot. */
export type Bounding = { kind: CgroupKind } | { kind: null; reason: string };

/**
 * Tries, as root, to make and remove a cgroup the way the watchdog will. A container's read-only
 * /sys/fs/cgroup, or a v2 root without the memory and pids controllers, leaves calls unbounded.
 */
export async function detectBounding(privilege: Privilege): Promise<Bounding> {
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
  const v1 = existsSync('/sys/fs/cgroup/memory/cgroup.procs') && existsSync('/sys/fs/cgroup/pids/cgroup.procs');
  if (v2) {
    const enabled = readFileSync('/sys/fs/cgroup/cgroup.subtree_control', 'utf8').split(/\s+/);
    const missing = ['memory', 'pids'].filter((c) => !enabled.includes(c));
    if (missing.length) return { kind: null, reason: `cgroup v2 has no ${missing.join(' or ')} controller for calls` };
  } else if (!v1) {
    return { kind: null, reason: 'this runner has no cgroup memory and pids controllers' };
  }
  const kind: CgroupKind = v2 ? 'v2' : 'v1';
  const probe = kind === 'v2' ? ['/sys/fs/cgroup/prl-probe'] : ['/sys/fs/cgroup/memory/prl-probe'];
  const name = `${probe[0]}-${process.pid}`;
  const made = await asRoot(privilege, ['mkdir', name]);
  if (made.code !== 0) return { kind: null, reason: `no cgroup can be made here (${made.stderr.trim().slice(-200)})` };
  await asRoot(privilege, ['rmdir', name]);
  return { kind };
}

/**
 * The watchdog's command line up to the call's stdin file (process.ts adds it and the call).
 * `disks`: folders the call writes to on disk, held above the free-disk floor (none for a call whose
 * layers are all in memory).
 */
export function watchdogArgs(
  script: string,
  kind: CgroupKind | 'none',
  cgroupName: string,
  limits: CallLimits,
  disks: readonly string[] = [],
): string[] {
  // One a line: a folder whose name holds a line break is left out (the action makes these folders).
  const watched = disks.filter((d) => !d.includes('\n'));
  return [
    '/bin/sh',
    script,
    kind,
    cgroupName,
    limits.memoryBytes === null ? 'max' : String(limits.memoryBytes),
    limits.pids === null ? 'max' : String(limits.pids),
    String(limits.cpuWeight),
    String(watched.length ? limits.diskFloorBytes : 0),
    watched.join('\n'),
  ];
}

/**
 * In dist/ beside the bundle (esbuild.config.mjs copies it there), and in src/process/ for the
 * sources and for scripts bundled elsewhere in the repository: the first found from here upwards.
 */
const WATCHDOG = findWatchdog();

/**
 * The watchdog's own copy in the run's folder, made before any call: the action's files may lie in
 * the work tree a call may write (a workflow's `uses: ./`), and root runs this script.
 */
export async function copyWatchdog(runFolder: string): Promise<string> {
  const copy = path.join(runFolder, 'call-watchdog.sh');
  await copyFile(WATCHDOG, copy);
  await chmod(copy, 0o644);
  return copy;
}

function findWatchdog(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    for (const p of ['call-watchdog.sh', 'process/call-watchdog.sh', 'src/process/call-watchdog.sh']) {
      if (existsSync(path.join(dir, p))) return path.join(dir, p);
    }
    if (dir === path.dirname(dir)) return 'call-watchdog.sh (not found beside the action)';
  }
}

/**
 * Removes what is left of the user's cgroups: a watchdog killed outright cannot remove its own.
 * Each is empty by then (its processes were the user's, all killed before).
 */
export async function removeCgroups(privilege: Privilege, user: string): Promise<void> {
  const script =
    'for d in /sys/fs/cgroup/"$1"-call-* /sys/fs/cgroup/*/"$1"-call-*; do [ -d "$d" ] && rmdir "$d"; done; exit 0';
  await asRoot(privilege, ['sh', '-c', script, 'remove-cgroups', user]);
}

/** What the log says of the bounds (or their absence). */
export function describeBounds(limits: CallLimits, bounding: Bounding): string {
  if (bounding.kind === null) return `calls are not bounded in memory, processes or CPU: ${bounding.reason}`;
  const gib = (b: number) => `${(b / 1024 ** 3).toFixed(1)} GiB`;
  const mem = limits.memoryBytes === null ? 'no memory bound' : `memory ≤ ${gib(limits.memoryBytes)} (tmpfs included)`;
  const pids = limits.pids === null ? 'no process bound' : `≤ ${limits.pids} processes`;
  return `each call in a cgroup (${bounding.kind}) of its own: ${mem}, ${pids}, CPU weight ${limits.cpuWeight}`;
}

/** What the log says of the bounds of what calls write (calls in namespaces: sandbox.ts). */
export function describeLayers(limits: CallLimits): string {
  const mib = (b: number) => `${Math.round(b / 1024 ** 2)} MiB`;
  const floor =
    limits.diskFloorBytes === 0
      ? 'the others may fill the disk (no free-disk floor)'
      : `the others are stopped when a disk they write to has less than ${mib(limits.diskFloorBytes)} free`;
  const home = `a read-only call writes at most ${mib(limits.homeBytes)} to HOME and as much to its state folder`;
  return `${home}, in memory; ${floor}`;
}
