// `setup` through the real bundle: a Node project whose tests need its dependency installed. Setup
// installs it (a real `npm ci`, offline, from a folder the project vendors) before the first
// review; reviewers read the head's test results in their context folder instead of running
// anything; the fixer's call runs `npm test` in place; verify passes on setup's installation;
// nothing setup created is committed, though the fixer un-ignores it. A failed setup never stops
// the review: a finding when the PR touches the manifest, a note about the environment otherwise.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { SAMPLE_PROJECT } from '../fakes/git-sandbox.js';
import { createWorld, type World } from './harness.js';
import { PRIVILEGE_PATHS } from './runner-user.js';
import { BUG_FINDING, FIXED_MATH, reviewerAnswer } from './scenarios.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const PACKAGE = {
  name: 'sample-project',
  version: '1.0.0',
  private: true,
  scripts: { test: 'node test.js' },
  dependencies: { greet: 'file:vendor/greet' },
};
/** The lock file `npm install --package-lock-only` writes for PACKAGE: what `npm ci` installs from. */
const LOCK = {
  name: 'sample-project',
  version: '1.0.0',
  lockfileVersion: 3,
  requires: true,
  packages: {
    '': { name: 'sample-project', version: '1.0.0', dependencies: { greet: 'file:vendor/greet' } },
    'node_modules/greet': { resolved: 'vendor/greet', link: true },
    'vendor/greet': { version: '1.0.0' },
  },
};
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
/** The project's tests need `greet` from node_modules: without an install they cannot run. */
const INSTALLED_PROJECT = {
  ...SAMPLE_PROJECT,
  'package.json': json(PACKAGE),
  'package-lock.json': json(LOCK),
  'vendor/greet/package.json': json({ name: 'greet', version: '1.0.0', main: 'index.js' }),
  'vendor/greet/index.js': 'module.exports = (n) => `hello ${n}`;\n',
  'test.js':
    "const assert = require('node:assert');\nconst greet = require('greet');\nconst { add } = require('./src/math.js');\n\n" +
    "assert.strictEqual(greet('x'), 'hello x');\nassert.strictEqual(add(2, 3), 5, 'add(2, 3) should be 5');\n" +
    "console.log('ok');\n",
};
const SETUP = 'npm ci --offline --no-audit --no-fund';

it.each(PRIVILEGE_PATHS)(
  'setup installs the project: reviewers read the head test run, the fixer runs npm test, nothing is committed, $how',
  async ({ asRunnerUser }) => {
    world = await createWorld({ sandbox: { baseFiles: INSTALLED_PROJECT } });
    let checkout = '';
    const r = await world.run({
      asRunnerUser,
      prepare: async (c) => void (checkout = c.dir),
      inputs: { setup: SETUP, verify: 'npm test', 'max-rounds': '2' },
      rules: [
        { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG_FINDING]) },
        { role: 'reviewer', answer: reviewerAnswer([]) },
        // The fixer un-ignores node_modules too: what setup created is still never committed.
        { role: 'fixer', fixAll: true, run: 'npm test', edits: { 'src/math.js': FIXED_MATH, '.gitignore': '' } },
      ],
    });
    expect(r.outputs.status, r.stdout + r.stderr).toBe('converged');
    expect(r.stdout).toMatch(/setup: npm ci/);
    expect(r.stdout).toMatch(/setup created 1 entries, never committed: node_modules/);
    // What npm ci wrote in HOME (its cache, its logs) stays for verify, the fixer sees only ~/.npm.
    expect(r.stdout).toMatch(/what setup wrote in HOME stays for later calls, read-only; .* only \.npm/);

    // Round 1's reviewers: the head's test run failed on the bug, fenced as data, and they are told.
    const reviewer = world.agentCalls().find((c) => c.role === 'reviewer' && c.round === 1)!;
    const headTests = readFileSync(path.join(reviewer.contextDir, 'head-tests.md'), 'utf8');
    expect(headTests).toContain('`npm test`');
    expect(headTests).toContain('exited with 1');
    expect(headTests).toMatch(/```text\n[^]*add\(2, 3\) should be 5/);
    expect(readFileSync(path.join(reviewer.contextDir, 'setup.md'), 'utf8')).toContain('Every command passed.');
    expect(reviewer.prompt).toContain('- setup: passed (`npm ci --offline --no-audit --no-fund`)');
    expect(reviewer.prompt).toContain('- the verify commands: failed: `npm test` exited with 1');
    expect(reviewer.prompt).toContain("Do not run the project's code");
    expect(reviewer.prompt).not.toContain('cp -r . /tmp/review');

    // The fixer's call ran the project's own test runner on setup's installation, before its fix.
    const fixer = world.agentCalls().find((c) => c.role === 'fixer')!;
    expect(fixer.ran?.output).toContain('add(2, 3) should be 5');
    expect(fixer.ran?.output).not.toContain("Cannot find module 'greet'");
    expect(fixer.prompt).toContain('  - `npm ci --offline --no-audit --no-fund`: passed');

    // One fix commit with the fixer's changes only; the report shows both runs' durations.
    const [fix] = await world.headLog();
    const changed = await world.sandbox.originGit(['diff-tree', '--no-commit-id', '--name-only', '-r', fix!.sha]);
    expect(changed.stdout.trim().split('\n').sort()).toEqual(['.gitignore', 'src/math.js']);
    const reports = world.github
      .comments(7)
      .map((c) => c.body)
      .join('\n');
    expect(reports).toMatch(/### Setup and tests on `[0-9a-f]{7}`/);
    expect(reports).toMatch(/\| setup \| ✅ passed \| [\d.]+ m?s/);
    expect(reports).toMatch(/\| tests on this head \| ❌ failed \|/);
    // The job's checkout is handed back as it came (git/hand-back.ts): setup's install is gone too.
    expect(existsSync(path.join(checkout, 'node_modules'))).toBe(false);
  },
);

it('a setup the PR breaks by its manifest is a P1 finding for the fixer; the review goes on', async () => {
  world = await createWorld({
    sandbox: {
      baseFiles: INSTALLED_PROJECT,
      // The PR adds a dependency without updating the lock file: `npm ci` refuses.
      prChanges: { 'package.json': json({ ...PACKAGE, dependencies: { ...PACKAGE.dependencies, left: 'file:x' } }) },
    },
  });
  const r = await world.run({
    inputs: { setup: SETUP, verify: 'npm test', 'max-rounds': '1' },
    rules: [
      { role: 'reviewer', answer: reviewerAnswer([]) },
      { role: 'fixer', rejectAll: 'cannot fix it here' },
    ],
  });
  expect(r.stdout).toMatch(/setup failed in/);
  const reviewer = world.agentCalls().find((c) => c.role === 'reviewer')!;
  expect(reviewer.prompt).toMatch(/- setup: failed: `npm ci[^`]*` exited with 1/);
  expect(reviewer.prompt).toContain(
    '- the verify commands: not run (the tests were not run on this head: setup failed)',
  );
  const [payload] = world.fixPayloads();
  expect(payload!.issuesToFix.map((f) => [f.id, f.priority])).toEqual([['SETUP-fails', 'P1']]);
  expect(payload!.issuesToFix[0]!.title).toContain('setup fails on this head');
});

it('a setup that fails on a PR that touches no manifest is reported, maybe the environment, no finding', async () => {
  world = await createWorld({ sandbox: { baseFiles: INSTALLED_PROJECT } });
  const r = await world.run({
    inputs: { setup: 'echo "registry unreachable" && exit 7', verify: 'npm test', 'max-rounds': '1' },
    rules: [{ role: 'reviewer', answer: reviewerAnswer([]) }],
  });
  expect(r.outputs.status, r.stdout + r.stderr).toBe('converged');
  expect(world.agentCalls().filter((c) => c.role === 'fixer')).toEqual([]);
  const reports = world.github
    .comments(7)
    .map((c) => c.body)
    .join('\n');
  expect(reports).toContain('Setup failed, maybe in the environment');
  expect(reports).toMatch(/```text\nregistry unreachable\n```/);
});
