// A verify command or hook runs in the sandbox as an unprivileged user that can never gain
// privileges (src/sandbox/: setpriv --no-new-privs, no sudo rule, no privileged group). So `sudo`
// fails, and so does a Docker client (`docker compose`, Testcontainers): the daemon's socket
// belongs to root and the docker group, and whoever reaches it is root on the runner. Such a
// command fails with the tool's own words, which do not say why; this recognises them in its
// output and says why and what to do. Nothing is refused by name: only a failure is explained.
// The same holds for a file of the runner's HOME the sandbox hides from calls (a credential, a
// registry configuration it cannot strip: sandbox/tool-rules.ts) that a failing tool names.
import { existsSync } from 'node:fs';
import { hiddenFileNamed } from '../sandbox/tool-rules.js';

const WHAT_TO_DO =
  "Run such tests in the project's CI (the workflows `dispatch-workflows` starts after each push), or set " +
  '`isolation: off` if this workflow accepts that PR code owns the runner.';

/** What sudo says when it cannot become root (sudo 1.9.10+ with no_new_privs, older ones, no rule). */
const SUDO_REFUSED = [
  /sudo: The "no new privileges" flag is set/,
  /sudo: effective uid is not 0/,
  /sudo: a password is required/,
  /sudo: a terminal is required to read the password/,
  /is not in the sudoers file/,
  /is not allowed to run sudo/,
];

/** What Docker clients say when the daemon's socket is missing or not theirs. */
const DOCKER_UNREACHABLE = [
  // The docker CLI and `docker compose` (both wordings of permission denied).
  /Cannot connect to the Docker daemon/,
  /permission denied while trying to connect to the Docker daemon socket/i,
  // Testcontainers for Java, for Node, and the Python Docker SDK under testcontainers-python.
  /Could not find a valid Docker environment/,
  /Could not find a working container runtime strategy/,
  /Error while fetching server API version/,
];

/**
 * Why a failed command could not work in its call, or null when its output shows none of these.
 * `env` is the command's environment: the Docker daemon counts as withheld only when the runner
 * has one (its socket exists outside the call), else it is simply not there.
 */
export function withheldBySandbox(output: string, env: NodeJS.ProcessEnv): string | null {
  if (SUDO_REFUSED.some((p) => p.test(output))) {
    return (
      '`sudo` cannot work here: the sandbox runs verify commands and hooks as an unprivileged user that can never ' +
      `become root. ${WHAT_TO_DO}`
    );
  }
  if (DOCKER_UNREACHABLE.some((p) => p.test(output)) && dockerSockets(env).some((s) => existsSync(s))) {
    return (
      'Docker cannot work here: the sandbox withholds the Docker daemon from verify commands and hooks (whoever ' +
      `reaches its socket is root on the runner). ${WHAT_TO_DO}`
    );
  }
  const hidden = hiddenFileNamed(output);
  if (hidden) {
    const why =
      hidden.class === 'credential'
        ? "the sandbox never shows a tool's credentials to verify commands and hooks"
        : 'the sandbox hides it from verify commands and hooks, since it may hold credentials';
    return (
      `\`${hidden.path}\` (${hidden.tool}) is hidden here: ${why}. Pass ${hidden.pass} through \`verify-env\` ` +
      "instead, or run such steps in the project's CI (the workflows `dispatch-workflows` starts after each push)."
    );
  }
  return null;
}

/** Where a Docker client looks for the daemon: DOCKER_HOST when it names a socket, else the default. */
function dockerSockets(env: NodeJS.ProcessEnv): string[] {
  const host = env.DOCKER_HOST ?? '';
  const named = host.startsWith('unix://') ? [host.slice('unix://'.length)] : [];
  return [...named, '/var/run/docker.sock', '/run/docker.sock'];
}
