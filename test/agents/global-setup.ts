// vitest globalSetup: installs the pinned agent CLIs the adapter tests drive, the Node the
// end-to-end suite runs the bundle with (test/e2e/action-node.ts), and, where the suite runs
// as root, what a hosted runner's isolation path needs: sudo (the sudo-path tests run as an
// ordinary user with passwordless sudo) and bubblewrap (fetched the way the action fetches it,
// once, so that parallel test files never race for apt's lock).
import { existsSync, mkdirSync } from 'node:fs';
import { installActionNode } from '../e2e/action-node.js';
import { CLI_CACHE_DIR, installPinnedClis } from './cli-cache.js';
import { createRunnerUser } from '../e2e/runner-user.js';
import { ensureNamespaces } from '../../src/sandbox/bubblewrap.js';
import { asRoot } from '../../src/sandbox/privilege.js';

export default async function setup(): Promise<(() => void) | undefined> {
  mkdirSync(CLI_CACHE_DIR, { recursive: true });
  await Promise.all([
    installPinnedClis((line) => console.log(`[agent CLIs] ${line}`)),
    installActionNode((line) => console.log(`[action node] ${line}`)),
    installIsolationTools(),
  ]);
  // The e2e tests that start the action as a hosted runner does: an ordinary user with sudo.
  return process.getuid?.() === 0 && process.platform === 'linux' ? createRunnerUser() : undefined;
}

async function installIsolationTools(): Promise<void> {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return;
  if (!existsSync('/usr/bin/sudo')) {
    console.log('[isolation] installing sudo with apt-get');
    const r = await asRoot('root', [
      'env',
      'DEBIAN_FRONTEND=noninteractive',
      'apt-get',
      'install',
      '-y',
      '--no-install-recommends',
      'sudo',
    ]);
    if (r.code !== 0) throw new Error(`apt-get install sudo failed: ${r.stderr.trim().slice(-500)}`);
  }
  const namespaces = await ensureNamespaces('root', (line) => console.log(`[isolation] ${line}`));
  if (!namespaces.ok) throw new Error(`the isolation tests need bubblewrap: ${namespaces.reason}`);
}
