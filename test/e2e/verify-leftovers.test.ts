// A fix commit holds what the fixer changed, never what the project's own commands left in the
// checkout: a verify command that runs `npm install` on a project without a lockfile writes a
// package-lock.json, a test run writes coverage/, an install rewrites package.json, a hook writes
// its report. Found with a real model on a real library: round 1's verify left an untracked
// package-lock.json, round 2's fix commit pushed it. Through the real bundle, on both privilege paths.
import { afterEach, expect, it } from 'vitest';
import { SAMPLE_PROJECT } from '../fakes/git-sandbox.js';
import { createWorld, type World } from './harness.js';
import { PRIVILEGE_PATHS } from './runner-user.js';
import { BUG_FINDING, DOC_FINDING, FIXED_MATH, reviewerAnswer } from './scenarios.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const DOCUMENTED_README = '# sample-project\n\n`add(a, b)` returns the sum of a and b.\n';

/** What `npm install` and a test run with coverage leave in a project that keeps no lockfile. */
const VERIFY = [
  // The lockfile npm writes, and the field it adds to package.json (a tracked file).
  `node -e "const fs = require('fs'); fs.writeFileSync('package-lock.json', '{\\"lockfileVersion\\": 3}\\n'); ` +
    `const p = JSON.parse(fs.readFileSync('package.json')); p.dependencies = {}; ` +
    `fs.writeFileSync('package.json', JSON.stringify(p, null, 2))"`,
  'mkdir -p coverage/lcov-report && echo TN: > coverage/lcov.info && echo "<html>" > coverage/lcov-report/index.html',
  'npm test',
].join('\n');

it.each(PRIVILEGE_PATHS)(
  "commits only the fixer's changes, never what verify and hooks left in the checkout, $how",
  async ({ asRunnerUser }) => {
    world = await createWorld({
      sandbox: {
        baseFiles: {
          ...SAMPLE_PROJECT,
          '.github/pr-review-loop.yml': 'hooks:\n  after-fix: "echo round done > hook-report.txt"\n',
        },
      },
    });
    const r = await world.run({
      asRunnerUser,
      inputs: { verify: VERIFY, 'max-rounds': '2' },
      rules: [
        { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG_FINDING]) },
        { role: 'reviewer', round: 2, answer: reviewerAnswer([DOC_FINDING]) },
        { role: 'fixer', round: 1, fixAll: true, edits: { 'src/math.js': FIXED_MATH } },
        { role: 'fixer', round: 2, fixAll: true, edits: { 'README.md': DOCUMENTED_README } },
      ],
    });
    expect(r.outputs.status, r.stdout + r.stderr).toBe('max-rounds');
    const [second, first] = await world.headLog();
    expect(second!.body).toContain('Review-Loop-Round: 2');
    expect(first!.body).toContain('Review-Loop-Round: 1');
    const changed = async (sha: string) =>
      (await world!.sandbox.originGit(['diff-tree', '--no-commit-id', '--name-only', '-r', sha])).stdout
        .trim()
        .split('\n');
    expect(await changed(first!.sha)).toEqual(['src/math.js']);
    // Before, round 2's commit also held coverage/, hook-report.txt, package-lock.json and package.json.
    expect(await changed(second!.sha)).toEqual(['README.md']);
    // The log says what was put back, and by which step.
    expect(r.stdout).toMatch(/verify changed the checkout; put back, never committed: .*package-lock\.json/);
    expect(r.stdout).toMatch(/verify changed the checkout; put back, never committed: .*package\.json/);
    expect(r.stdout).toMatch(/verify changed the checkout; put back, never committed: .*coverage\/lcov\.info/);
    expect(r.stdout).toMatch(/the after-fix hook changed the checkout; put back, never committed: hook-report\.txt/);
    // The fixer is told: a lockfile change it needs is its own to make.
    const fixer = world.agentCalls().find((c) => c.role === 'fixer')!;
    expect(fixer.prompt.replace(/\s+/g, ' ')).toContain('makes that change itself');
  },
);
