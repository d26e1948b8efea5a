// vitest globalSetup: installs the pinned agent CLIs the adapter tests drive, and the Node
// the end-to-end suite runs the bundle with (test/e2e/action-node.ts).
import { mkdirSync } from 'node:fs';
import { installActionNode } from '../e2e/action-node.js';
import { CLI_CACHE_DIR, installPinnedClis } from './cli-cache.js';

export default async function setup(): Promise<void> {
  mkdirSync(CLI_CACHE_DIR, { recursive: true });
  await Promise.all([
    installPinnedClis((line) => console.log(`[agent CLIs] ${line}`)),
    installActionNode((line) => console.log(`[action node] ${line}`)),
  ]);
}
