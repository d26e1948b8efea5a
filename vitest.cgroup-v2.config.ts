import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The cgroup v2 stage (`npm run test:cgroup-v2`, scripts/cgroup-v2/scenarios.sh): the bounds
// scenarios run one at a time, as an ordinary user with sudo and then as root in the same work
// tree, so vitest's cache is kept per user outside it. In an emulated machine a call is 5 to 30
// times slower than on a runner: the limits end a hung test, they do not time a healthy one.
export default defineConfig({
  cacheDir: path.join(tmpdir(), `prl-vitest-cgroup-v2-${process.getuid?.() ?? 0}`),
  test: {
    include: ['test/sandbox/call-bounds.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
