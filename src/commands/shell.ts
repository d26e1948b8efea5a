// The project's own commands (verify commands and hooks) run one way: `/bin/sh -c` in the
// checkout, stderr folded into stdout, the token-free environment, the agent timeout, and as
// the sandbox user with write access to the work tree (plus any folder the command owns).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runProcess, type ProcessResult } from '../process/process.js';
import { namedPaths } from '../sandbox/named-paths.js';
import type { Sandbox } from '../sandbox/sandbox.js';

export interface ShellEnv {
  /** The checkout: the command's working directory and the work tree it may write. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  sandbox?: Sandbox;
  /**
   * The command line comes from the workflow or the base branch's config (verify, hooks), not
   * from an agent: the paths it names are shown to its call (src/sandbox/named-paths.ts).
   */
  trustedCommand?: boolean;
  /**
   * What the command sees of what setup wrote in HOME (sandbox/setup-layer.ts): all of it, as it
   * runs the PR's code anyway, unless it is one of setup's own (`record`).
   */
  setupHome?: 'record' | 'whole';
}

/** Runs one command line; `owned` are folders of its own it may write besides the work tree. */
export async function runShell(command: string, shell: ShellEnv, owned: string[] = []): Promise<ProcessResult> {
  const relay = shell.sandbox?.privateTmp ? undefined : await relayFolder(shell.env);
  try {
    const spec = {
      command: '/bin/sh',
      // No folder: the call makes one in its own /tmp. An empty one: the call runs without a pipe.
      args: ['-c', THROUGH_A_PIPE, 'sh', command, ...(relay === undefined ? [] : [relay ?? ''])],
      cwd: shell.cwd,
      env: shell.env,
      timeoutMs: shell.timeoutMs,
    };
    const shown = shell.trustedCommand ? { shown: namedPaths(command) } : {};
    const writes = relay ? [...owned, relay] : owned;
    const access = { workTree: shell.cwd, owned: writes, ...shown, setupHome: shell.setupHome ?? 'whole' };
    return await (shell.sandbox ? shell.sandbox.run(spec, access) : runProcess(spec));
  } finally {
    if (relay) await rm(relay, { recursive: true, force: true });
  }
}

/**
 * The folder of the command's pipe where its /tmp is shared (no sandbox, or one without namespaces):
 * ours, so that it goes when the call ends however it ends, also when the command is killed at its
 * time limit or the run is cancelled, which would leave one the shell made. Private (0700) and not
 * guessable, as mktemp(1) makes one; in the call's TMPDIR, where the shell would have made it. Null
 * where none can be made there (then the command runs on its output as it is).
 */
async function relayFolder(env: NodeJS.ProcessEnv): Promise<string | null> {
  const parent = env.TMPDIR && path.isAbsolute(env.TMPDIR) ? env.TMPDIR : tmpdir();
  try {
    return await mkdtemp(path.join(parent, 'prl-pipe-'));
  } catch {
    return null;
  }
}

/**
 * Runs the command line ($1) with its output and errors going to a pipe, copied to ours. Node gives
 * a child a socket for each output (libuv makes a socket pair), and opening a socket through
 * /proc/self/fd fails (ENXIO), so `echo … >/dev/stderr` and `tee /dev/stdout` would fail where a
 * runner's step (a pipe) works. The copy ends when the command's output closes, or half a second
 * after the command ended (as process.ts waits for a process's output) when something it started
 * keeps it open. Where no pipe can be made, the command runs on the socket as before.
 *
 * The pipe goes in the folder $2, which runShell made and removes. Without $2 the call has a /tmp of
 * its own (a sandbox's namespaces) and makes the folder there, not in TMPDIR (a folder the workflow
 * may share with the call): it goes with that /tmp, however the call ends. So the shell removes nothing.
 */
const THROUGH_A_PIPE = [
  'exec 2>&1',
  'relay=${2-$(mktemp -d /tmp/prl-pipe-XXXXXXXXXX 2>/dev/null)}',
  'command -v cat >/dev/null && [ -n "$relay" ] && mkfifo "$relay/out" 2>/dev/null ||',
  '  exec /bin/sh -c "$1"',
  'cat "$relay/out" & copier=$!',
  '/bin/sh -c "$1" >"$relay/out" 2>&1',
  'status=$?',
  '( sleep 0.5 && kill "$copier" ) >/dev/null 2>&1 & stopper=$!',
  'wait "$copier" 2>/dev/null',
  'kill "$stopper" 2>/dev/null',
  'exit "$status"',
].join('\n');

/** True when the command exited 0 within its time. */
export const succeeded = (r: ProcessResult): boolean => r.exitCode === 0 && !r.timedOut;
