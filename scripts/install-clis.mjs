#!/usr/bin/env node
// Installs the pinned agent CLIs into .cache/clis/<name>@<version>/ (skipping
// those already there): a warm cache before `npm test` or `npm run bench`, which install them too.
// The logic lives in test/agents/cli-cache.ts; esbuild turns it into plain JS
// here because Node 20 cannot import TypeScript.
import { build } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, '.cache', 'install-clis');
mkdirSync(outDir, { recursive: true });
const outfile = path.join(outDir, `cli-cache-${process.pid}.mjs`);
await build({
  entryPoints: [path.join(root, 'test/agents/cli-cache.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile,
  logLevel: 'warning',
  // Keep import.meta.url pointing at the real source folder for the root path.
  define: { 'import.meta.url': JSON.stringify(pathToFileURL(path.join(root, 'test/agents/cli-cache.ts')).href) },
});
try {
  const { installPinnedClis, CLI_CACHE_DIR } = await import(pathToFileURL(outfile).href);
  mkdirSync(CLI_CACHE_DIR, { recursive: true });
  await installPinnedClis((line) => console.log(line));
  console.log(`agent CLIs ready in ${CLI_CACHE_DIR}`);
} finally {
  rmSync(outfile, { force: true });
}
