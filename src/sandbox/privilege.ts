// How the action gets the rights to create a user and hand it the checkout: it is root (a
// container or a self-hosted runner run as root), or passwordless `sudo -n` works (GitHub's
// hosted runners give the runner user NOPASSWD: ALL). Everything privileged goes through here.
import { execFile } from 'node:child_process';

export type Privilege = 'root' | 'sudo';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

// Privileged helpers need no secret and must not see one: PATH and a locale only.
const HELPER_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C' };

export function exec(command: string, args: string[], env: NodeJS.ProcessEnv = HELPER_ENV): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(command, args, { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
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
  return privilege === 'root' ? exec(command, args) : exec('sudo', ['-n', '--', ...argv]);
}

/** Like asRoot, but a non-zero exit throws with the command and its stderr. */
export async function mustAsRoot(privilege: Privilege, argv: string[]): Promise<string> {
  const r = await asRoot(privilege, argv);
  if (r.code !== 0) throw new Error(`${argv.join(' ')} failed (exit ${r.code}): ${r.stderr.trim().slice(-500)}`);
  return r.stdout;
}
