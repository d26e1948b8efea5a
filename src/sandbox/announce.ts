// Opening the run's sandbox, and saying plainly in the log and the job summary when agents,
// verify commands and hooks run as the action's own user (the token is then within reach), or,
// under `isolation: auto`, that the fixer, verify commands and hooks do not run for that reason,
// when calls share more than they should (no namespace could be made), and when the sandbox
// user could not be removed.
import type { ActionIO } from '../domain/io.js';
import type { CallLimits } from './call-limits.js';
import type { SandboxRecord } from './leftover.js';
import { createSandbox, type IsolationMode, type Sandbox } from './sandbox.js';

export async function openSandbox(
  mode: IsolationMode,
  workDir: string,
  io: ActionIO,
  options: { callLimits?: CallLimits; homeFolders?: readonly string[] } = {},
): Promise<Sandbox> {
  const homeFolders = options.homeFolders ?? [];
  const share = homeFolders.filter((f) => !f.startsWith('!'));
  const deny = homeFolders.filter((f) => f.startsWith('!')).map((f) => f.slice(1));
  const record = (r: SandboxRecord) => io.saveState?.('sandbox', JSON.stringify(r));
  const sandbox = await createSandbox(mode, workDir, {
    record,
    log: (line) => io.info(line),
    homeFolders: { share, deny },
    ...(options.callLimits ? { callLimits: options.callLimits } : {}),
  });
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
    if (sandbox.unbounded) {
      const note = `Calls are not bounded: ${sandbox.unbounded}. A call can take the runner's memory or processes.`;
      io.warning(note);
      await io.appendSummary(`> [!WARNING]\n> pr-review-loop: ${note}\n`).catch(() => undefined);
    }
    return withCheckedClose(sandbox, io);
  }
  const note =
    mode === 'auto'
      ? `Not isolated: ${sandbox.reason}. The reviewers run as the action's own user; the fixer, verify ` +
        'commands and hooks do not run, so nothing is fixed (isolation: off runs them anyway, within reach of ' +
        'the GitHub token; see docs/security.md, "Isolation").'
      : `Not isolated: ${sandbox.reason}. Agents, verify commands and hooks run as the action's own user and ` +
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
