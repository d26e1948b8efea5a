// The environment for sandbox tests that are not about the view of the runner's HOME
// (home-view.test.ts is): the same as the test's, but HOME an empty folder. A sandbox's first
// call waits for that view, a walk of HOME's tool folders, and a developer's or CI machine's HOME
// may hold toolchains of hundreds of thousands of files (rustup and pyenv here: 3–4 s a sandbox).
// Below /opt, as home-view.test.ts's: every call has a /tmp of its own, so a HOME below /tmp
// would be out of its sight.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';

export interface EmptyHome {
  env: NodeJS.ProcessEnv;
  remove(): void;
}

/** process.env with HOME an empty folder of its own (as root; otherwise process.env as it is). */
export function emptyHome(): EmptyHome {
  if (process.getuid?.() !== 0) return { env: process.env, remove: () => undefined };
  const home = mkdtempSync('/opt/prl-empty-home-');
  chmodSync(home, 0o755);
  return { env: { ...process.env, HOME: home }, remove: () => rmSync(home, { recursive: true, force: true }) };
}
