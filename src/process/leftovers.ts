// Processes that escaped their process group. runProcess kills the child's group, but a
// tool can start a command in a new session (Gemini CLI runs every shell command with
// setsid; a test suite may daemonize a server), and that process would outlive the run.
// Every child gets a unique marker variable, inherited by everything it starts; after the
// run, any process still carrying it is killed. Linux only (/proc); elsewhere the
// process-group kill is all there is.
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';

const INVOCATION_VAR = 'REVIEW_LOOP_INVOCATION_ID';

export function newInvocationMarker(): { name: string; value: string } {
  return { name: INVOCATION_VAR, value: randomUUID() };
}

/** Kills every process whose environment holds `NAME=value`; returns how many. */
export async function killLeftovers(marker: string): Promise<number> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return 0;
  }
  let killed = 0;
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const env = await readFile(`/proc/${pid}/environ`, 'latin1');
      if (!env.split('\0').includes(marker)) continue;
      process.kill(pid, 'SIGKILL');
      killed++;
    } catch {
      // Gone already, or another user's process.
    }
  }
  return killed;
}
