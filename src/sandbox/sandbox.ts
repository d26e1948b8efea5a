// Every process that runs on PR-influenced content (agent CLIs, verify commands, hooks) goes
// through a Sandbox (issue 7, part 1; SPEC §10 "Isolation"). Scrubbing a child's environment
// cannot protect the token: any process of the action's own user can read the action's
// /proc/<pid>/environ and /proc/<pid>/mem. A process of ANOTHER unprivileged user cannot
// (proc(5): both need ptrace access, which a different uid without CAP_SYS_PTRACE lacks).
import path from 'node:path';
import { runProcess, type ProcessResult, type ProcessSpec } from '../agents/process.js';
import { AccessGrants } from './access.js';
import { killAllOf, killMarked } from './kill.js';
import { detectPrivilege, type Privilege } from './privilege.js';
import { createSandboxUser, deleteSandboxUser, type SandboxUser } from './user.js';

/** What one call may touch besides reading what is readable to everyone. */
export interface CallAccess {
  /** A checkout the call may write (everything but `.git`). */
  workTree?: string;
  /** Folders the call owns while it runs (a CLI state home, a hook's scratch folder). */
  owned?: readonly string[];
  /** Folders the call may read (a context folder the action wrote 0700). */
  readable?: readonly string[];
}

export interface Sandbox {
  /** Null when calls run as the action's own user; then `reason` says why. */
  readonly user: string | null;
  readonly reason: string;
  run(spec: ProcessSpec, access: CallAccess): Promise<ProcessResult>;
  /** Kills what is left, gives everything back, deletes the user. Idempotent. */
  close(): Promise<void>;
}

export type IsolationMode = 'auto' | 'required' | 'off';

/** Calls run as the action's own user: the token is readable through /proc (docs/security.md). */
export function unisolated(reason: string): Sandbox {
  return { user: null, reason, run: (spec) => runProcess(spec), close: async () => {} };
}

export class IsolationUnavailable extends Error {}

/** The run's sandbox; throws IsolationUnavailable when `required` cannot be met. */
export async function createSandbox(mode: IsolationMode, workDir: string): Promise<Sandbox> {
  if (mode === 'off') return unisolated('isolation is off (input isolation: off)');
  const found = await detectPrivilege();
  let reason = found.privilege === null ? found.reason : '';
  if (found.privilege !== null) {
    try {
      return await isolated(found.privilege, await createSandboxUser(found.privilege, workDir));
    } catch (e) {
      reason = `creating the sandbox user failed: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  if (mode === 'required') throw new IsolationUnavailable(`isolation: required, but ${reason}`);
  return unisolated(reason);
}

async function isolated(privilege: Privilege, user: SandboxUser): Promise<Sandbox> {
  const grants = new AccessGrants(privilege, user);
  await grants.traverse(path.dirname(user.home));
  let active = 0;
  let closed = false;
  // The sweep that kills every process of the user; a call starting meanwhile waits for it.
  let sweeping: Promise<void> | null = null;
  const runAs = { uid: user.uid, gid: user.gid, killMarked: (m: string) => killMarked(privilege, m) };
  return {
    user: user.name,
    reason: '',
    async run(spec, access) {
      while (sweeping) await sweeping;
      if (closed) throw new Error('the sandbox is closed');
      active++;
      const giveBack: Array<() => Promise<void>> = [];
      try {
        const reached = [spec.cwd, ...(access.owned ?? []), ...(access.readable ?? [])];
        await grants.traverse(...reached, ...(spec.command.startsWith('/') ? [spec.command] : []));
        for (const dir of access.readable ?? []) await grants.readable(dir);
        giveBack.push(await grants.own(access.owned ?? []));
        if (access.workTree) giveBack.push(await grants.workTree(access.workTree));
        const env = withUserEnv(spec.env, user, access.owned ?? []);
        return await runProcess({
          ...spec,
          env,
          runAs: privilege === 'sudo' ? { ...runAs, sudoUser: user.name } : runAs,
        });
      } finally {
        active--;
        // Only when no other call of the user runs (reviewers run in parallel): then nothing
        // of the user may live on, whatever it did to hide (setsid, dropping the marker).
        if (active === 0) {
          sweeping = killAllOf(privilege, user.uid).finally(() => (sweeping = null));
          await sweeping;
        }
        for (const undo of giveBack.reverse()) await undo();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await killAllOf(privilege, user.uid);
      await grants.restore();
      await deleteSandboxUser(privilege, user);
    },
  };
}

/** HOME is the private one unless the caller chose a folder the call owns (a CLI state home). */
function withUserEnv(env: NodeJS.ProcessEnv, user: SandboxUser, owned: readonly string[]): NodeJS.ProcessEnv {
  const home = env.HOME && owned.some((o) => env.HOME === o || env.HOME!.startsWith(`${o}/`)) ? env.HOME : user.home;
  return { ...env, HOME: home, USER: user.name, LOGNAME: user.name };
}
