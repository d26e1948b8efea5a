// Opening the run's sandbox, and saying plainly in the log and the job summary when agents,
// verify commands and hooks run as the action's own user (the token is then within reach).
import type { ActionIO } from '../io.js';
import { createSandbox, type IsolationMode, type Sandbox } from './sandbox.js';

export async function openSandbox(mode: IsolationMode, workDir: string, io: ActionIO): Promise<Sandbox> {
  const sandbox = await createSandbox(mode, workDir);
  if (sandbox.user) {
    io.info(`isolation: agents, verify commands and hooks run as the unprivileged user ${sandbox.user}`);
    return sandbox;
  }
  const note =
    `Not isolated: ${sandbox.reason}. Agents, verify commands and hooks run as the action's own user and ` +
    'could read the GitHub token from its process (see docs/security.md, "Isolation").';
  io.warning(note);
  await io.appendSummary(`> [!WARNING]\n> pr-review-loop: ${note}\n`).catch(() => undefined);
  return sandbox;
}
