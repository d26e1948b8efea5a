// vitest globalSetup: installs the pinned agent CLIs the adapter tests drive.
import { mkdirSync } from 'node:fs';
import { CLI_CACHE_DIR, installPinnedClis } from './cli-cache.js';

export default async function setup(): Promise<void> {
  mkdirSync(CLI_CACHE_DIR, { recursive: true });
  await installPinnedClis((line) => console.log(`[agent CLIs] ${line}`));
}
