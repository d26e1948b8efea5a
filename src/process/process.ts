// Spawning agent CLIs. Every child gets its own process
// group so a timeout or our own shutdown can kill the CLI and everything it
// started (shells, language servers, test runners) with one signal.
//
// When is a run over? On 'close' (all stdio closed) or, at the latest,
// DRAIN_MS after the child's 'exit': a grandchild that inherited stdout must
// not keep us waiting. When the run is over, whatever is left of the group is
// killed, so no agent process outlives its call.
import { spawn } from 'node:child_process';
import { killLeftovers, newInvocationMarker } from './leftovers.js';
import { trustedProgram } from './programs.js';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ProcessSpec {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Kills the whole process group past it. 0, negative or Infinity: no timeout. */
  timeoutMs: number;
  /** Written to stdin, then stdin is closed. Absent: stdin is /dev/null. */
  stdin?: string;
  /** Cap per stream; output beyond it is dropped (the tail is kept). Default 8 MiB. */
  maxOutputBytes?: number;
  /** SIGTERM → SIGKILL grace after a timeout. Default KILL_GRACE_MS. */
  killGraceMs?: number;
  /** Run as another OS user (src/sandbox/); absent: as ourselves. */
  runAs?: RunAs;
}

/**
 * Another user to run as. As root the child is spawned with that uid and gid (libuv also
 * drops supplementary groups); through sudo, `sudo -n -E -u <user>` starts it. Either way our
 * process-group kill may not reach what the user started, so `killMarked` kills by marker.
 */
export interface RunAs {
  uid: number;
  gid: number;
  /** Set when the user is reached through sudo (we are not root). */
  sudoUser?: string;
  /**
   * A sandbox command line (bubblewrap … setpriv …) started as root that becomes the user
   * itself; the command follows it. Absent: the child is started as the user directly.
   */
  jail?: readonly string[];
  /**
   * The root watchdog the jail is started under (call-watchdog.sh, up to its stdin file): it kills
   * the call when our end of its stdin closes, which the kernel does however we die, and bounds the
   * call by a cgroup. Then the call's own stdin is a file the watchdog opens.
   */
  watchdog?: readonly string[];
  killMarked: (marker: string) => Promise<void>;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
  /** Bytes dropped from the head of each stream by the cap; absent when none were. */
  droppedBytes?: { stdout: number; stderr: number };
}

export const DEFAULT_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
/** SIGTERM → SIGKILL grace on timeout. */
export const KILL_GRACE_MS = 2_000;
/** How long stdout may stay open after the child exited. */
export const DRAIN_MS = 500;

/**
 * Runs one process to its end. Never rejects: spawn errors become exitCode null. Afterwards
 * nothing it started survives, not even processes that left its group (leftovers.ts).
 */
export async function runProcess(spec: ProcessSpec): Promise<ProcessResult> {
  const marker = newInvocationMarker();
  const tag = `${marker.name}=${marker.value}`;
  const killTagged = (): Promise<unknown> => (spec.runAs ? spec.runAs.killMarked(tag) : killLeftovers(tag));
  const watched = spec.runAs?.jail && spec.runAs.watchdog ? stdinFile(spec.stdin) : undefined;
  try {
    const res = await runInGroup({ ...spec, env: { ...spec.env, [marker.name]: marker.value } }, killTagged, watched);
    await killTagged();
    return res;
  } finally {
    if (watched?.dir) await rm(watched.dir, { recursive: true, force: true });
  }
}

interface Watched {
  /** The folder of the call's stdin file (ours, 0700), when it has stdin. */
  dir?: string;
  file?: string;
}

/**
 * A watched call's stdin goes through a file: the watchdog's own stdin is the pipe that keeps it.
 * Written synchronously, so that runProcess still spawns before it first awaits (a sandbox that is
 * closed meanwhile kills what it started, never something started after).
 */
function stdinFile(stdin: string | undefined): Watched {
  if (stdin === undefined) return {};
  const dir = mkdtempSync(path.join(tmpdir(), 'prl-stdin-'));
  const file = path.join(dir, 'stdin');
  writeFileSync(file, stdin, { mode: 0o600 });
  return { dir, file };
}

/** The command line that starts `spec` as its user: sudo re-sets PATH (secure_path), so it is given again. */
function commandLine(spec: ProcessSpec, stdinFile?: string): { command: string; args: string[] } {
  const user = spec.runAs?.sudoUser;
  const jail = spec.runAs?.jail;
  if (!user && !jail) return { command: spec.command, args: spec.args };
  const keep = ['PATH', 'HOME'].flatMap((k) => (spec.env[k] !== undefined ? [`${k}=${spec.env[k]}`] : []));
  const inner = ['/usr/bin/env', ...keep, spec.command, ...spec.args];
  if (jail) {
    const watchdog = spec.runAs?.watchdog;
    const argv = watchdog ? [...watchdog, stdinFile ?? '-', '--', ...jail, ...inner] : [...jail, ...inner];
    return user ? { command: sudo(), args: ['-n', '-E', '--', ...argv] } : { command: argv[0]!, args: argv.slice(1) };
  }
  return { command: sudo(), args: ['-n', '-E', '-u', user!, '--', ...inner] };
}

/**
 * sudo by its absolute path: spawn would look it up through the call's PATH, whose folders a call
 * may have been able to write. Where none is found the name stays, and the spawn fails as before.
 */
function sudo(): string {
  try {
    return trustedProgram('sudo', ['/usr/bin', '/bin', '/usr/sbin', '/sbin']);
  } catch {
    return 'sudo';
  }
}

function runInGroup(spec: ProcessSpec, killTagged: () => Promise<unknown>, watched?: Watched): Promise<ProcessResult> {
  const started = performance.now();
  const cap = spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const out = new TailBuffer(cap);
  const err = new TailBuffer(cap);
  let timedOut = false;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let child: ChildProcess | undefined;
  const timers: NodeJS.Timeout[] = [];

  return new Promise((resolve) => {
    let done = false;
    const finish = (startError?: Error): void => {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      if (child?.pid !== undefined) {
        untrackGroup(child.pid);
        if (exit) killGroup(child.pid, 'SIGKILL'); // leftovers of a finished child
      }
      child?.stdin?.destroy();
      child?.stdout?.destroy();
      child?.stderr?.destroy();
      if (startError) err.push(Buffer.from(startErrorMessage(spec, startError)));
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        stdout: out.text(),
        stderr: err.text(),
        timedOut,
        durationMs: Math.round(performance.now() - started),
        ...(out.dropped + err.dropped > 0 ? { droppedBytes: { stdout: out.dropped, stderr: err.dropped } } : {}),
      });
    };

    try {
      const { command, args } = commandLine(spec, watched?.file);
      const direct = spec.runAs && !spec.runAs.sudoUser && !spec.runAs.jail;
      const asUser = direct ? { uid: spec.runAs!.uid, gid: spec.runAs!.gid } : {};
      child = spawn(command, args, {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        stdio: [spec.stdin === undefined && !watched ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        ...asUser,
      });
    } catch (e) {
      finish(e as Error); // e.g. a NUL byte in an argument
      return;
    }
    const c = child;
    c.stdout?.on('data', (b: Buffer) => out.push(b));
    c.stderr?.on('data', (b: Buffer) => err.push(b));
    // 'error' without a pid: the process never started (ENOENT, EACCES).
    c.on('error', (e) => c.pid === undefined && finish(e));
    c.on('exit', (code, signal) => {
      exit = { code, signal };
      timers.push(setTimeout(finish, DRAIN_MS));
    });
    c.on('close', () => finish());
    if (c.pid === undefined) return;
    const pid = c.pid;
    trackGroup(pid);
    if (watched) {
      // Kept open, and never written: the watchdog's lifeline (closed by finish, or by the kernel).
      c.stdin?.on('error', () => {});
    } else if (spec.stdin !== undefined && c.stdin) {
      c.stdin.on('error', () => {}); // EPIPE: the child exited without reading stdin
      c.stdin.end(spec.stdin);
    }
    if (spec.timeoutMs > 0 && Number.isFinite(spec.timeoutMs)) {
      const onTimeout = (): void => {
        if (exit) return;
        timedOut = true;
        killGroup(pid, 'SIGTERM');
        timers.push(
          setTimeout(() => {
            killGroup(pid, 'SIGKILL');
            // Another user's processes (under sudo) are out of our signals' reach.
            if (spec.runAs) void killTagged();
          }, spec.killGraceMs ?? KILL_GRACE_MS),
        );
      };
      timers.push(setTimeout(onTimeout, spec.timeoutMs));
    }
  });
}

function startErrorMessage(spec: ProcessSpec, e: Error): string {
  const code = (e as NodeJS.ErrnoException).code;
  // spawn reports a missing cwd as ENOENT of the command, which misleads.
  if (code === 'ENOENT' && !existsSync(spec.cwd)) {
    return `cannot start '${spec.command}': working directory ${spec.cwd} does not exist\n`;
  }
  if (code === 'ENOENT') return `cannot start '${spec.command}': command not found (ENOENT)\n`;
  return `cannot start '${spec.command}': ${e.message}\n`;
}

/** Keeps the last `cap` bytes of a stream. */
class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  dropped = 0;
  constructor(private readonly cap: number) {}

  push(b: Buffer): void {
    this.chunks.push(b);
    this.size += b.length;
    while (this.size > this.cap && this.chunks.length > 0) {
      const excess = this.size - this.cap;
      const first = this.chunks[0]!;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
        this.dropped += first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
        this.dropped += excess;
      }
    }
  }

  text(): string {
    let buf = Buffer.concat(this.chunks);
    // After a cut, skip UTF-8 continuation bytes so the text starts on a character.
    if (this.dropped > 0) {
      let i = 0;
      while (i < buf.length && i < 4 && (buf[i]! & 0xc0) === 0x80) i++;
      buf = buf.subarray(i);
    }
    return buf.toString('utf8');
  }
}

// Live process groups, killed if we are terminated or exit while they run.
const liveGroups = new Set<number>();
const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function killAllGroups(): void {
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
}

function onShutdownSignal(signal: NodeJS.Signals): void {
  killAllGroups();
  liveGroups.clear();
  detachHandlers();
  // Our listener replaced the default action (terminate); restore it unless
  // someone else also listens and decides what to do.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function attachHandlers(): void {
  process.on('exit', killAllGroups);
  for (const s of SHUTDOWN_SIGNALS) process.on(s, onShutdownSignal);
}

function detachHandlers(): void {
  process.off('exit', killAllGroups);
  for (const s of SHUTDOWN_SIGNALS) process.off(s, onShutdownSignal);
}

function trackGroup(pid: number): void {
  if (liveGroups.size === 0) attachHandlers();
  liveGroups.add(pid);
}

function untrackGroup(pid: number): void {
  if (liveGroups.delete(pid) && liveGroups.size === 0) detachHandlers();
}

/** Number of agent process groups still running; for tests and shutdown logs. */
export function liveProcessGroups(): number {
  return liveGroups.size;
}
