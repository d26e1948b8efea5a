import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Installs the pinned agent CLIs into .cache/clis/ when missing (test/agents, e2e).
    globalSetup: ['./test/agents/global-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    // An e2e test runs the bundle through whole review and fix rounds: 10–30 s on an idle 2-core
    // machine, three to four times that with another suite beside it. The limit is there to end a
    // hung test, not to time a healthy one (speed is measured by `npm run bench`).
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // vitest's default (one worker fewer than the cores) is a single worker on a 2-core machine,
    // but most of the suite waits (GitHub's pacing of comments, agent and git child processes):
    // two workers there took the suite from 12.5 to 8.9 minutes, every test passing. With the suite
    // grown, `.ci/run` on two workers used 17 CPU-minutes in 24.6 minutes of two cores (35%); three
    // took it to 17.4 minutes, every test passing, with the unit loop run beside it for 3 of them.
    maxWorkers: Math.max(3, availableParallelism() - 1),
  },
});
