// What an earlier step of the job left in the checkout (a credentials file, a folder of build
// output, both ignored by git) never enters a fix commit, even when the fixer un-ignores it: the
// commit is staged by the action's own user, which can read a 0600 file the sandbox user cannot.
import { mkdirSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWorld, type World } from '../harness.js';
import { FIXED_MATH, PLANTED_BUG_RULES } from '../scenarios.js';

const OIDC = 'oidc-request-bearer-token-5e4d3c2b1a09';

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.close();
});

it("keeps an earlier step's ignored files out of the fix commit when the fixer un-ignores them", async () => {
  const oldHead = world.sandbox.headSha;
  // The fixer fixes the bug and, with it, writes a .gitignore that un-ignores everything.
  const edits = { 'src/math.js': FIXED_MATH, '.gitignore': '!gha-creds-*.json\n!cache/\n' };
  const rules = [...PLANTED_BUG_RULES.filter((r) => r.role !== 'fixer'), { role: 'fixer', fixAll: true, edits }];
  const r = await world.run({
    rules,
    prepare: async (checkout) => {
      await appendFile(path.join(checkout.dir, '.git', 'info', 'exclude'), 'gha-creds-*.json\ncache/\n');
      writeFileSync(path.join(checkout.dir, 'gha-creds-5f2a.json'), `{"token":"${OIDC}"}\n`, { mode: 0o600 });
      mkdirSync(path.join(checkout.dir, 'cache'));
      writeFileSync(path.join(checkout.dir, 'cache', 'token.txt'), `${OIDC}\n`, { mode: 0o600 });
    },
  });
  expect(r.outputs.status, r.stdout + r.stderr).toBe('converged');

  const fix = (await world.headLog())[0]!;
  expect(fix.parents).toEqual([oldHead]);
  const changed = await world.sandbox.originGit(['diff', '--name-only', oldHead, fix.sha]);
  // The fixer's own edits are committed; the earlier step's files are not.
  expect(changed.stdout.trim().split('\n').sort()).toEqual(['.gitignore', 'src/math.js']);
  const tree = await world.sandbox.originGit(['ls-tree', '-r', '--name-only', fix.sha]);
  expect(tree.stdout).not.toMatch(/gha-creds|cache\//);
  expect(r.stdout).toMatch(/left out of fix commits[^\n]*cache[^\n]*gha-creds-5f2a\.json/);
});
