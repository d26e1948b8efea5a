// Proven confirmation with a real CLI: Claude Code as the confirmer writes a failing
// test through its shell tool and names its command; the action runs it on the PR head (it
// fails), the Claude Code fixer fixes the bug, the action runs it again (it passes), and the fix
// commit ships the test with the evidence in the report.
import { expect, it } from 'vitest';
import { envelopeText, type ModelRequest, type Reply } from '../fakes/model-server/index.js';
import { panelWorld } from './panel-world.js';
import { panelFixerReply, plantedBugReview, realCliPanel } from './real-cli-panel.js';

const TEST =
  "const assert = require('node:assert');\nconst { add } = require('../src/math.js');\n" +
  "assert.strictEqual(add(1, 1), 2, 'add(1, 1) should be 2');\n";

function script(req: ModelRequest): Reply {
  const t = req.transcript;
  if (t.includes('You are the confirmation agent')) {
    if (req.resultsSincePrompt === 0) {
      const command = `mkdir -p test && cat > test/add.test.js <<'EOF'\n${TEST}EOF`;
      return { tool: { name: 'Bash', input: { command, description: 'write the failing test' } } };
    }
    return {
      text: envelopeText({
        agent: 'confirm',
        findingId: 'x',
        confirmed: true,
        testFile: 'test/add.test.js',
        testName: 'add(1, 1)',
        testCommand: 'node test/add.test.js',
        explanation: 'add(1, 1) is 0 with the bug',
      }),
    };
  }
  return t.includes('You are the fix agent') ? panelFixerReply(req) : plantedBugReview(t);
}

const cli = panelWorld(script);

it("runs a real Claude Code confirmer's test before and after the fix", async () => {
  const [world, models] = [cli.world(), cli.models()];
  const panel = await realCliPanel(models);
  const r = await world.run({
    ...panel,
    inputs: { ...panel.inputs, reviewers: 'claude:claude-sonnet-4-5', confirm: 'P1' },
  });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.outputs.status, r.stdout).toBe('converged');
  expect(r.stdout).toContain('confirmed: `node test/add.test.js` fails on the PR head');
  const fix = (await world.headLog())[0]!;
  const files = await world.sandbox.originGit(['show', '--name-only', '--format=', fix.sha]);
  expect(files.stdout.split('\n').filter(Boolean).sort()).toEqual(['src/math.js', 'test/add.test.js']);
  const report = world.github.comments(7)[1]!.body;
  expect(report).toContain('`node test/add.test.js` failed on the PR head with only the test added; passes after');
  expect(report).toContain('add(1, 1) should be 2');
});
