// How the action gets the rights to create a user and hand it the checkout: it is root (a
// container or a self-hosted runner run as root), or passwordless `sudo -n` works (GitHub's
// hosted runners give the runner user NOPASSWD: ALL). Everything privileged goes through here.
import { execFile } from 'node:child_process';
import { trustedProgram } from '../process/programs.js';

export type Privilege = 'root' | 'sudo';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

// Privileged helpers need no secret and must not see one: PATH and a locale only. Each is started
// by its absolute path from these folders, checked as programs.ts checks them.
const HELPER_FOLDERS: readonly string[] = ['/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const HELPER_ENV = { PATH: HELPER_FOLDERS.join(':'), LC_ALL: 'C' };

/** Runs `command` (a name from HELPER_FOLDERS, or an absolute path); never rejects. */
export function exec(command: string, args: string[], env: NodeJS.ProcessEnv = HELPER_ENV): Promise<CommandResult> {
  return new Promise((resolve) => {
    let program: string;
    try {
      program = trustedProgram(command, HELPER_FOLDERS);
    } catch (e) {
      return resolve({ code: 127, stdout: '', stderr: e instanceof Error ? e.message : String(e) });
    }
    execFile(program, args, { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 127) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) || (error && code === 127 ? error.message : '') });
    });
  });
}

/** Root, sudo, or null with the reason isolation is impossible. */
export async function detectPrivilege(): Promise<{ privilege: Privilege } | { privilege: null; reason: string }> {
  if (process.platform !== 'linux') return { privilege: null, reason: `the runner is ${process.platform}, not Linux` };
  if (process.getuid?.() === 0) return { privilege: 'root' };
  // -n: never prompt; a sudo that wants a password fails at once instead of hanging the step.
  const probe = await exec('sudo', ['-n', 'true']);
  if (probe.code === 0) return { privilege: 'sudo' };
  return {
    privilege: null,
    reason: 'the action runs as an ordinary user without passwordless sudo, so it cannot create a separate user',
  };
}

/** Runs `argv` as root: directly when we are root, else through `sudo -n`. */
export function asRoot(privilege: Privilege, argv: string[]): Promise<CommandResult> {
  const [command, ...args] = argv;
  if (!command) throw new Error('asRoot: empty command');
  if (privilege === 'root') return exec(command, args);
  // sudo would look the command up in its own secure_path; it gets the path we checked instead.
  let program: string;
  try {
    program = trustedProgram(command, HELPER_FOLDERS);
  } catch (e) {
    return Promise.resolve({ code: 127, stdout: '', stderr: e instanceof Error ? e.message : String(e) });
  }
  return exec('sudo', ['-n', '--', program, ...args]);
}

/** Like asRoot, but a non-zero exit throws with the command and its stderr. */
export async function mustAsRoot(privilege: Privilege, argv: string[]): Promise<string> {
  const r = await asRoot(privilege, argv);
  if (r.code !== 0) throw new Error(`${argv.join(' ')} failed (exit ${r.code}): ${r.stderr.trim().slice(-500)}`);
  return r.stdout;
}
