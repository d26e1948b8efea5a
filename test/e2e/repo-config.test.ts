// The repo config file read from the base branch: presets, instructions, path filters and
// lifecycle hooks (docs/repository-config.md), through the real bundle.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_PROJECT } from '../fakes/git-sandbox.js';
import { createWorld, type World } from './harness.js';
import { BUG_FINDING, reviewerAnswer } from './scenarios.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const hookFinding = JSON.stringify([
  {
    priority: 'P2',
    category: 'docs',
    file: 'README.md',
    line: 1,
    title: 'Changelog entry missing',
    description: 'from a hook',
  },
]);

function withConfig(yaml: string) {
  return createWorld({ sandbox: { baseFiles: { ...SAMPLE_PROJECT, '.github/pr-review-loop.yml': yaml } } });
}

it('applies a preset and path filters from the base branch, and hooks add findings and see the outcome', async () => {
  world = await withConfig(
    [
      'presets:',
      '  careful:',
      '    mode: review',
      'instructions: Pay attention to arithmetic.',
      'paths:',
      '  exclude: ["*.md"]',
      'hooks:',
      '  before-review: |',
      `    cat > "$REVIEW_LOOP_FINDINGS_FILE" <<'JSON'`,
      `    ${hookFinding}`,
      '    JSON',
      '  after-finish:',
      '    - \'echo "$REVIEW_LOOP_HOOK $REVIEW_LOOP_STATUS" > "$HOOK_OUT"\'',
      '',
    ].join('\n'),
  );
  // The hook runs as the sandbox user: it writes where that user may, and sees HOOK_OUT only
  // because verify-env names it.
  const hookOut = path.join(world.dir, 'agent-io', 'hook-out.txt');
  const r = await world.run({
    inputs: { preset: 'careful', 'verify-env': 'HOOK_OUT' },
    extraEnv: { HOOK_OUT: hookOut },
    rules: [{ role: 'reviewer', answer: reviewerAnswer([BUG_FINDING]) }],
  });
  expect(r.outputs.status, r.stdout).toBe('review-only');
  expect(r.outputs.p2).toBe('1');
  const report = world.github.comments(7)[0]!.body;
  expect(report).toContain('Changelog entry missing');
  expect(report).toContain('hook:before-review');
  expect(readFileSync(hookOut, 'utf8').trim()).toBe('after-finish review-only');
  const reviewer = world.agentCalls().find((c) => c.role === 'reviewer')!;
  const files = JSON.parse(readFileSync(path.join(reviewer.contextDir, 'files.json'), 'utf8')) as {
    filename: string;
  }[];
  expect(files.map((f) => f.filename)).toEqual(['src/math.js']);
});

it('stops with a clear failure and no comment when a before-review hook fails', async () => {
  world = await withConfig('hooks:\n  before-review: "echo hook says no; exit 3"\n');
  const r = await world.run({ rules: [{ role: 'reviewer', answer: reviewerAnswer([]) }] });
  expect(r.outputs.status).toBe('failed');
  expect(r.code).toBe(1);
  expect(world.github.comments(7)).toHaveLength(0);
  expect(r.summary).toContain('before-review');
  expect(r.summary).toContain('hook says no');
  expect(world.agentCalls()).toHaveLength(0);
});

it('rejects a repo config that tries to set a workflow-only input, before any agent runs', async () => {
  world = await withConfig('defaults:\n  allow-fork-fixes: "true"\n');
  const r = await world.run({ rules: [{ role: 'reviewer', answer: reviewerAnswer([]) }] });
  expect(r.outputs.status).toBe('failed');
  // The job's log names the file, the key's line and the key.
  expect(r.stdout).toContain('.github/pr-review-loop.yml:2: defaults.allow-fork-fixes can only be set in the workflow');
  expect(world.github.writes()).toHaveLength(0);
  expect(world.agentCalls()).toHaveLength(0);
});

// The tuning inputs moved to the repository config (src/config/deprecated-inputs.ts). A diff cap
// shows in what the reviewer is handed: diff.patch opens with the sampling note naming the budget.
describe('a tuning setting moved to the repository config', () => {
  const reviewerDiff = (w: World) => {
    const reviewer = w.agentCalls().find((c) => c.role === 'reviewer')!;
    return readFileSync(path.join(reviewer.contextDir, 'diff.patch'), 'utf8');
  };
  const rules = [{ role: 'reviewer', answer: reviewerAnswer([]) }];

  it('takes effect from the file, with no deprecation warning', async () => {
    world = await withConfig('defaults:\n  max-diff-lines: 3\n');
    const r = await world.run({ inputs: { mode: 'review' }, rules });
    expect(r.outputs.status, r.stdout).toBe('converged');
    expect(reviewerDiff(world)).toContain('(budget 3 lines / 200000 characters)');
    expect(r.stdout).not.toContain('deprecated');
  });

  it('still takes effect from the workflow, and warns naming the input and the file equivalent', async () => {
    world = await createWorld();
    const r = await world.run({ inputs: { mode: 'review', 'max-diff-lines': '3' }, rules });
    expect(r.outputs.status, r.stdout).toBe('converged');
    expect(reviewerDiff(world)).toContain('(budget 3 lines / 200000 characters)');
    // The runner's warning command, its lines joined by %0A (@actions/core escapes newlines).
    const warning = /^::warning::(Input "max-diff-lines" is deprecated.*)$/m.exec(r.stdout)?.[1] ?? '';
    expect(warning).toContain('set it in the repository config .github/pr-review-loop.yml');
    expect(warning.split('%0A').slice(1)).toEqual(['defaults:', '  max-diff-lines: 3']);
  });
});
