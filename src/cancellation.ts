// A run the runner cancels. On a cancelled job (a newer push with `cancel-in-progress`, or a person)
// the runner sends SIGINT, then SIGTERM a few seconds later, then kills the process. In that time
// the action stops its agents, starts nothing new, never starts a push (a push already under way is
// atomic and is left to finish, so the branch is never half-updated), and says the run was cancelled.

/** Thrown by the steps that would start new work once the run is cancelled. */
export class RunCancelled extends Error {
  constructor(readonly signalName: string) {
    super(`the run was cancelled (${signalName}): nothing more was started`);
  }
}

export interface Cancellation {
  signal: AbortSignal;
  /** Throws RunCancelled once the run is cancelled. */
  check(): void;
}

/** Cancels on the first SIGINT or SIGTERM the process gets; later signals change nothing. */
export function cancelOnSignals(proc: NodeJS.Process = process): Cancellation {
  const controller = new AbortController();
  let name = '';
  const onSignal = (sig: NodeJS.Signals): void => {
    if (controller.signal.aborted) return;
    name = sig;
    controller.abort(new RunCancelled(sig));
  };
  // Listening replaces Node's default (exit at once), so the run can stop cleanly.
  proc.on('SIGINT', onSignal);
  proc.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    check() {
      if (controller.signal.aborted) throw new RunCancelled(name);
    },
  };
}

/** A cancellation that never happens (tests, and runs that are not started by the runner). */
export function neverCancelled(): Cancellation {
  return { signal: new AbortController().signal, check() {} };
}
