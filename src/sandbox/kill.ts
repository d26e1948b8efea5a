// Ending the sandbox user's processes. A process that left its process group (setsid) and
// dropped the marker variable (`env -u`) escapes leftovers.ts, but not its user id: once no
// call of the run is under way, every process of the sandbox user is killed.
import { killLeftovers } from '../process/leftovers.js';
import { asRoot, type Privilege } from './privilege.js';

const ROUNDS = 10;

/**
 * Kills every process whose real or effective uid is `uid`; repeats while some fork. pkill reads
 * /proc one entry at a time, so a process forked while it reads can be missed: only two rounds in
 * a row that find nothing end the sweep (one was not enough on a loaded machine).
 */
export async function killAllOf(privilege: Privilege, uid: number): Promise<void> {
  let quiet = 0;
  for (let i = 0; i < ROUNDS && quiet < 2; i++) {
    // pkill exits 1 when nothing matched. Two commands: pkill(1) ANDs its criteria, and either id
    // alone makes a process the user's.
    const [byReal, byEffective] = await Promise.all([
      asRoot(privilege, ['pkill', '-KILL', '-U', String(uid)]),
      asRoot(privilege, ['pkill', '-KILL', '-u', String(uid)]),
    ]);
    quiet = byReal.code === 1 && byEffective.code === 1 ? quiet + 1 : 0;
    if (quiet < 2) await new Promise((r) => setTimeout(r, 20));
  }
}

/** Kills the processes of one call (those carrying its marker) without touching the others. */
export async function killMarked(privilege: Privilege, marker: string): Promise<void> {
  // As root we can read every /proc/<pid>/environ ourselves.
  if (privilege === 'root') {
    await killLeftovers(marker);
    return;
  }
  // Through sudo, a root shell reads them; the marker is a random id, not a secret. One grep reads
  // every environ, its entries NUL-ended (-z) and matched whole (-x), as killLeftovers matches them:
  // a pipe of tr and grep for each process on the machine was two processes per process per call.
  const script =
    'grep -lzxF -e "$1" /proc/[0-9]*/environ 2>/dev/null | while IFS= read -r e; do ' +
    'p=${e#/proc/}; kill -KILL "${p%/environ}" 2>/dev/null; done; exit 0';
  await asRoot(privilege, ['sh', '-c', script, 'kill-marked', marker]);
}
