// Runs a TypeScript script (demo, bench) without a TS loader dependency: esbuild bundles it
// into .cache/ and node runs the bundle. Usage: node scripts/run-ts.mjs scripts/demo.ts
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const entry = process.argv[2];
if (!entry) throw new Error('usage: node scripts/run-ts.mjs <script.ts> [args…]');
const outfile = path.join('.cache', 'scripts', `${path.basename(entry, '.ts')}.mjs`);
await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
});
const r = spawnSync(process.execPath, [outfile, ...process.argv.slice(3)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
