// The environment for sandbox tests that are not about the view of the runner's HOME
// (home-view.test.ts is): the same as the test's, but HOME an empty folder and no toolchain
// variable. A sandbox's first call waits for that view, a walk of HOME's tool folders, and a
// developer's or CI machine's HOME may hold toolchains of hundreds of thousands of files (rustup
// and pyenv here: 3–4 s a sandbox). A toolchain variable naming a folder outside HOME (PYENV_ROOT,
// the npm_config_cache that `npm run` sets) is a moved tool folder: its own walk per sandbox and
// its own overlay per call, the same cost again (home-view.test.ts covers those views).
// Below /opt, as home-view.test.ts's: every call has a /tmp of its own, so a HOME below /tmp
// would be out of its sight.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { isToolchainVariable } from '../../src/agents/toolchain-env.js';

export interface EmptyHome {
  env: NodeJS.ProcessEnv;
  remove(): void;
}

/** process.env with HOME an empty folder of its own (as root; otherwise process.env as it is). */
export function emptyHome(): EmptyHome {
  if (process.getuid?.() !== 0) return { env: process.env, remove: () => undefined };
  const home = mkdtempSync('/opt/prl-empty-home-');
  chmodSync(home, 0o755);
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !isToolchainVariable(name)));
  return { env: { ...env, HOME: home }, remove: () => rmSync(home, { recursive: true, force: true }) };
}
