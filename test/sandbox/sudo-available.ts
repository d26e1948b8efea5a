// Tests of the sudo path (the action as an ordinary user with passwordless sudo, as on GitHub's
// hosted runners) and of what a call's own `sudo` says need sudo on the machine. `npm test`'s setup
// installs it where the suite runs as root (test/agents/global-setup.ts); `npm run test:unit`
// installs nothing, and a fresh machine (a container) starts without it.
import { spawnSync } from 'node:child_process';

/** Why a test that needs sudo is skipped here, or null when sudo can be started. */
export function sudoMissing(): string | null {
  if (!spawnSync('sudo', ['--version']).error) return null;
  return 'needs sudo, which is not installed; npm test installs it (apt-get install sudo) and runs this test';
}
