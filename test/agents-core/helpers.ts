// Shared helpers for the agents-core tests: temp folders, fake agent paths, liveness.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FAKES = fileURLToPath(new URL('../fakes/agents/', import.meta.url));
export const NODE = process.execPath;

export function fake(name: string): string {
  return path.join(FAKES, name);
}

export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'agents-core-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Alive and not a zombie (a reparented zombie may wait a moment for its reaper). */
async function aliveNow(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== '' && state !== 'Z';
}

/**
 * Polls until `pid` is gone; returns false if it is still alive after `ms`. A killed process is
 * gone in milliseconds on an idle machine, but a loaded one (two suites on two cores) took over
 * 1.5 s: the bound only ends a wait that would never end.
 */
export async function waitGone(pid: number, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!(await aliveNow(pid))) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !(await aliveNow(pid));
}

/**
 * Kills leftovers so a failing test does not leak sleeping processes: each pid
 * and, where it leads one, its process group (runProcess makes every child a leader).
 */
export function killQuietly(pids: number[]): void {
  for (const pid of pids) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // already gone, or not a group leader
      }
    }
  }
}
