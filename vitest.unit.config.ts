import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The quick loop (`npm run test:unit`): every test that needs neither the agent CLIs nor the
// bundle, so it downloads nothing, builds nothing, and has no global setup. The end-to-end suite
// (test/e2e, which starts dist/index.js) and the tests that drive the real CLIs stay in
// `npm test`, which runs everything.
/** Test files that start a real agent CLI: they name the CLI cache (test/agents/cli-cache.ts). */
export const NEEDS_CLIS = testFiles('test').filter((f) =>
  /cli-cache|cli-suite|real-cli-panel/.test(readFileSync(f, 'utf8')),
);

/**
 * Tests that wait on purpose, left to `npm test`: the cache client's own retries against a cache
 * service that answers 500 take a minute, as long as the rest of the loop together.
 */
export const WAITS_ON_PURPOSE = ['test/agents/install-cache-outage.test.ts'];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = `${dir}/${e.name}`;
    return e.isDirectory() ? testFiles(p) : e.name.endsWith('.test.ts') ? [p] : [];
  });
}

export default defineConfig({
  // Packages as the bundle has them (esbuild, platform node, no `development` condition): vitest
  // would load the development builds micromark's packages export, whose assertions and debug
  // calls were a third of every markdown parse (the report tests parse tens of thousands). Vite
  // merges `ssr.resolve.conditions` with its default, so the condition is taken out once the
  // config is resolved; vitest hands the rest to its workers as node's --conditions.
  plugins: [
    {
      name: 'bundle-conditions',
      configResolved(config) {
        const drop = (conditions: string[] | undefined) =>
          conditions?.splice(0, conditions.length, ...conditions.filter((c) => !/development/.test(c)));
        drop(config.ssr.resolve?.conditions);
        for (const env of Object.values(config.environments)) drop(env.resolve.conditions);
      },
    },
  ],
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', ...NEEDS_CLIS, ...WAITS_ON_PURPOSE, '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One module graph per worker, not per file: the import of every file's modules was a third of
    // the loop's time, and these tests hold no state between files (each builds its own fakes).
    isolate: false,
    // One worker more than the cores: with one a core, the cores stood idle a third of the loop
    // (80 s on 2 cores for 113 s of CPU) while workers waited on child processes, sandbox set-up
    // and the sleeps a test needs. On 2 cores, 3 workers took it from 79–95 s to 61–67 s (runs
    // side by side, on a machine others loaded).
    maxWorkers: availableParallelism() + 1,
  },
});
