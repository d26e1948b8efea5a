// The checkout handed back as it came (src/git/hand-back.ts, called at the run's end by
// src/run-agents.ts). Before, a verify that wrote `node_modules/.bin/eslint` (ignored by the PR's
// .gitignore) left it in the job's checkout, owned by the runner user, for a later step's
// `npx eslint` to run with that step's secrets; and an untracked file an earlier step left, that
// others may write, kept what a call wrote into it. Through the real bundle, on both privilege paths.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWorld, type World } from '../harness.js';
import { PRIVILEGE_PATHS } from '../runner-user.js';
import { PLANTED_BUG_RULES } from '../scenarios.js';

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.close();
});

const ESLINT = '#!/bin/sh\necho "planted eslint runs with $GITHUB_TOKEN"\n';

it.each(PRIVILEGE_PATHS)(
  'removes what verify created in ignored paths and restores what it changed, $how',
  async ({ asRunnerUser }) => {
    let dir = '';
    const r = await world.run({
      asRunnerUser,
      rules: PLANTED_BUG_RULES,
      inputs: {
        verify: [
          `mkdir -p node_modules/.bin && printf '${ESLINT.replace(/\n/g, '\\n')}' > node_modules/.bin/eslint`,
          'chmod +x node_modules/.bin/eslint && echo "rewritten by verify" > build-info.txt && npm test',
        ].join(' && '),
      },
      // What an earlier step of the job left: a file others may write, and an ignored folder of its own.
      prepare: async (checkout) => {
        dir = checkout.dir;
        // Ignored where the job keeps its own ignores (the action needs an otherwise clean checkout).
        writeFileSync(path.join(dir, '.git/info/exclude'), 'build-info.txt\nnode_modules-cache/\n');
        writeFileSync(path.join(dir, 'build-info.txt'), 'from the build step\n');
        chmodSync(path.join(dir, 'build-info.txt'), 0o666);
        mkdirSync(path.join(dir, 'node_modules-cache'));
        writeFileSync(path.join(dir, 'node_modules-cache', 'kept.txt'), 'kept\n');
      },
    });
    expect(r.outputs.status, r.stdout + r.stderr).toBe('converged');
    // Verify ran and wrote both (the fix passed it).
    expect(r.stdout).toContain('verify: mkdir -p node_modules/.bin');
    expect(existsSync(path.join(dir, 'node_modules')), 'node_modules is gone').toBe(false);
    expect(readFileSync(path.join(dir, 'build-info.txt'), 'utf8')).toBe('from the build step\n');
    expect(readFileSync(path.join(dir, 'node_modules-cache', 'kept.txt'), 'utf8')).toBe('kept\n');
    expect(r.stdout).toMatch(
      /the checkout handed back: removed what calls created, ignored paths included: .*node_modules \(3 paths\)/,
    );
    expect(r.stdout).toMatch(/the checkout handed back: restored untracked files a call changed: build-info\.txt/);
  },
);
