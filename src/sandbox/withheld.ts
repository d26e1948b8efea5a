// What a run may not do without isolation. The fixer, verify commands and hooks run the PR's code
// (and the fixer writes it); as the action's own user they could read the token from its process
// (/proc/<pid>/environ and mem: sandbox.ts). With `isolation: auto` on a runner that cannot give
// them a user of their own, they do not run: the review goes on, nothing is fixed. Only
// `isolation: off`, the workflow's explicit word, runs them as the action's user anyway.
import type { IsolationMode, Sandbox } from './sandbox.js';

/** Why the fixer, verify commands and hooks may not run in this sandbox, or null when they may. */
export function prCodeWithheld(mode: IsolationMode, sandbox: Pick<Sandbox, 'user' | 'reason'>): string | null {
  if (sandbox.user !== null || mode !== 'auto') return null;
  return (
    `this runner cannot isolate (${sandbox.reason}), so the fixer, verify commands and hooks, which run the ` +
    "PR's code, would run as the action's own user, within reach of the token; isolation: off runs them anyway"
  );
}
