import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The quick loop (`npm run test:unit`): every test that needs neither the agent CLIs nor the
// bundle, so it downloads nothing, builds nothing, and has no global setup. The end-to-end suite
// (test/e2e, which starts dist/index.js) and the tests that drive the real CLIs stay in
// `npm test`, which runs everything.
export const NEEDS_CLIS = [
  'test/agents/claude.test.ts',
  'test/agents/codex.test.ts',
  'test/agents/gemini.test.ts',
  'test/agents/opencode.test.ts',
  'test/agents/hostile-config.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', ...NEEDS_CLIS, '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One module graph per worker, not per file: the import of every file's modules was a third of
    // the loop's time, and these tests hold no state between files (each builds its own fakes).
    isolate: false,
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
