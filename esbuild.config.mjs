// Bundles src/main.ts into the committed dist/index.js that action.yml runs.
// ESM output needs a require shim: bundled CommonJS dependencies (tunnel, via
// @actions/http-client) call require() on node builtins at run time.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/index.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  legalComments: 'none',
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __prlCreateRequire } from 'node:module'; const require = __prlCreateRequire(import.meta.url);",
  },
});
