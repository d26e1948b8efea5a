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
}

/**
 * Sized for a GitHub-hosted runner (7 to 16 GB, 2 to 4 cores), where reviewers run side by side:
 * half the machine's memory, 4096 processes and threads (a large build's threads fit), and half the
 * CPU weight of the action's own processes.
 */
const DEFAULT_WORDS: Readonly<Record<LimitKey, string>> = { memory: '50%', pids: '4096', 'cpu-weight': '50' };

type LimitKey = 'memory' | 'pids' | 'cpu-weight';

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
    const m = /^(memory|pids|cpu-weight)=(\S+)$/.exec(word);
    if (!m) throw new Error(`call-limits: "${word}" is not memory=…, pids=… or cpu-weight=…`);
    given.set(m[1] as LimitKey, m[2]!);
  }
  const value = (key: LimitKey) => given.get(key) ?? DEFAULT_WORDS[key];
  return {
    memoryBytes: memory(value('memory'), machineBytes),
    pids: whole(value('pids'), 'pids', 16, 4_194_304),
    cpuWeight: whole(value('cpu-weight'), 'cpu-weight', 1, 10_000) ?? 100,
  };
}

function memory(v: string, machineBytes: number): number | null {
  if (v === 'max') return null;
  const pct = /^(\d{1,3})%$/.exec(v);
  if (pct && Number(pct[1]) >= 1 && Number(pct[1]) <= 100) return Math.floor((machineBytes * Number(pct[1])) / 100);
  const size = /^(\d+)([KMG]?)$/i.exec(v);
  const unit = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(size?.[2] ?? '').toUpperCase() as '' | 'K' | 'M' | 'G'];
  const bytes = size ? Number(size[1]) * unit : NaN;
  if (!(bytes >= 64 * 1024 ** 2))
    throw new Error(`call-limits: memory=${v} is not a size of 64M or more (4G), a share (50%) or max`);
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

/** The watchdog's command line up to the call's stdin file (process.ts adds it and the call). */
export function watchdogArgs(
  script: string,
  kind: CgroupKind | 'none',
  cgroupName: string,
  limits: CallLimits,
): string[] {
  return [
    '/bin/sh',
    script,
    kind,
    cgroupName,
    limits.memoryBytes === null ? 'max' : String(limits.memoryBytes),
    limits.pids === null ? 'max' : String(limits.pids),
    String(limits.cpuWeight),
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
