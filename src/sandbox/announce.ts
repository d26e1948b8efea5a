// Opening the run's sandbox, and saying plainly in the log and the job summary when agents,
// verify commands and hooks run as the action's own user (the token is then within reach),
// when calls share more than they should (no namespace could be made), and when the sandbox
// user could not be removed.
import type { ActionIO } from '../domain/io.js';
import { createSandbox, type IsolationMode, type Sandbox } from './sandbox.js';

export async function openSandbox(
  mode: IsolationMode,
  workDir: string,
  io: ActionIO,
  homeFolders: readonly string[] = [],
): Promise<Sandbox> {
  const share = homeFolders.filter((f) => !f.startsWith('!'));
  const deny = homeFolders.filter((f) => f.startsWith('!')).map((f) => f.slice(1));
  const sandbox = await createSandbox(mode, workDir, { log: (line) => io.info(line), homeFolders: { share, deny } });
  if (sandbox.user) {
    io.info(
      `isolation: agents, verify commands and hooks run as the unprivileged user ${sandbox.user}` +
        (sandbox.limits.length ? '' : ', each call in namespaces of its own'),
    );
    if (sandbox.limits.length) {
      const [why, ...lost] = sandbox.limits;
      const note =
        `Isolation is partial: ${why}. Calls run as a separate user, so the token stays out of their ` +
        `reach, but ${lost.join('; and ')}.`;
      io.warning(note);
      await io.appendSummary(`> [!WARNING]\n> pr-review-loop: ${note}\n`).catch(() => undefined);
    }
    return withCheckedClose(sandbox, io);
  }
  const note =
    `Not isolated: ${sandbox.reason}. Agents, verify commands and hooks run as the action's own user and ` +
    'could read the GitHub token from its process (see docs/security.md, "Isolation").';
  io.warning(note);
  await io.appendSummary(`> [!WARNING]\n> pr-review-loop: ${note}\n`).catch(() => undefined);
  return sandbox;
}

/** A sandbox user left behind is a warning in the log and the job summary, naming the cause. */
function withCheckedClose(sandbox: Sandbox, io: ActionIO): Sandbox {
  return {
    ...sandbox,
    run: (spec, access) => sandbox.run(spec, access),
    async close() {
      try {
        await sandbox.close();
      } catch (e) {
        const note = e instanceof Error ? e.message : String(e);
        io.warning(note);
        await io.appendSummary(`> [!WARNING]\n> pr-review-loop: ${note}\n`).catch(() => undefined);
      }
    },
  };
}
