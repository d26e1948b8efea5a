// What the run's sandbox left when the action was killed outright: its `Sandbox.close()` never ran,
// so the sandbox user may still exist, own files in the work tree (lent to it for a call) and have
// processes. The action records its sandbox when it makes it (the step's saved state), and the
// action's `post:` step (src/post.ts, run by the runner after the job's steps, also after a kill)
// hands this record here. This matters on self-hosted runners: a hosted machine is discarded.
import { readFile, stat } from 'node:fs/promises';
import { layerSource } from './bounded-layers.js';
import { removeCgroups } from './call-limits.js';
import { killAllOf } from './kill.js';
import { asRoot, detectPrivilege, exec, type Privilege } from './privilege.js';
import { deleteSandboxUser, type SandboxUser } from './user.js';

/** What the action saves of its sandbox as soon as it exists. */
export interface SandboxRecord extends SandboxUser {
  workDir: string;
}

/** Parses a saved record; null when there is none or it is not one (nothing is done then). */
export function parseSandboxRecord(text: string | undefined): SandboxRecord | null {
  if (!text) return null;
  try {
    const r = JSON.parse(text) as Partial<SandboxRecord>;
    const ok =
      typeof r.name === 'string' &&
      /^prl-[0-9a-f]{10}$/.test(r.name) &&
      Number.isSafeInteger(r.uid) &&
      Number.isSafeInteger(r.gid) &&
      r.uid! >= 1_000_000_000 &&
      typeof r.base === 'string' &&
      typeof r.workDir === 'string';
    return ok ? (r as SandboxRecord) : null;
  } catch {
    return null;
  }
}

/**
 * Kills what is left of the user, gives back what it owns in the work tree, removes its cgroups, the
 * user and its folder. Returns what it did, for the log; nothing when the run closed its sandbox.
 */
export async function cleanUpLeftover(record: SandboxRecord): Promise<string[]> {
  const account = await exec('getent', ['passwd', record.name]);
  if (account.code !== 0 || !account.stdout.startsWith(`${record.name}:${'x'}:${record.uid}:`)) return [];
  const found = await detectPrivilege();
  if (found.privilege === null) return [`the sandbox user ${record.name} is left: ${found.reason}`];
  const { privilege } = found;
  await killAllOf(privilege, record.uid);
  await removeCgroups(privilege, record.name);
  const owner = await stat(record.workDir).catch(() => null);
  const done = [`killed what was left of ${record.name}`];
  if (owner) {
    // Only what the user owns goes back, to the work tree's owner: an earlier step's files keep theirs.
    const ids = `${owner.uid}:${owner.gid}`;
    await asRoot(privilege, ['chown', '-R', '-h', `--from=${record.uid}`, ids, '--', record.workDir]);
    done.push(`gave back what it owned in ${record.workDir}`);
  }
  const unmounted = await unmountBelow(privilege, record.base, layerSource(record.name));
  if (unmounted) done.push(`unmounted ${unmounted} view(s) of the runner's HOME and layer(s) of read-only calls`);
  await deleteSandboxUser(privilege, record);
  done.push(`removed the user and ${record.base}`);
  return done;
}

/**
 * The mounts a killed run left below its folder (each call's view of the runner's HOME and the run's
 * layer) and, by their name, the tmpfs of its read-only calls' state folders (in RUNNER_TEMP),
 * deepest first; lazily, so a mount still in use cannot keep the folder. Returns how many.
 */
async function unmountBelow(privilege: Privilege, base: string, source: string): Promise<number> {
  const mounts = await readFile('/proc/self/mounts', 'utf8').catch(() => '');
  // Fields are space-separated with spaces in paths written as \040.
  const points = mounts
    .split('\n')
    .map((line) => line.split(' ').map((f) => f.replace(/\\040/g, ' ')))
    .filter(([from, p]) => p && (p.startsWith(`${base}/`) || from === source))
    .map(([, p]) => p!)
    .sort((a, b) => b.length - a.length);
  for (const p of points) await asRoot(privilege, ['umount', '-l', '--', p]);
  return points.length;
}
