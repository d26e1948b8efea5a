// The CLIs kept in the Actions cache between runs, through the real bundle: a first run on an
// empty tool cache installs the real Claude Code with npm and saves it to the cache service (a
// stand-in on 127.0.0.1 that the real @actions/cache client talks to); the next run, on another
// empty tool cache and with npm out of reach, restores it from the cache, and the restored CLI
// reviews the PR against the fake model server.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { envelopeText, type ModelRequest, type Reply } from '../fakes/model-server/index.js';
import { startFakeActionsCache, type FakeActionsCache } from '../fakes/actions-cache.js';
import { panelWorld } from './panel-world.js';
import { realCliPanel, reviewRound } from './real-cli-panel.js';
import { BUG_FINDING, reviewerAnswer } from './scenarios.js';

function script(req: ModelRequest): Reply {
  return reviewRound(req.transcript) === 0 ? { text: 'ok' } : { text: envelopeText(reviewerAnswer([BUG_FINDING])) };
}

const cli = panelWorld(script);
let cache: FakeActionsCache;
beforeAll(async () => {
  cache = await startFakeActionsCache();
});
afterAll(async () => {
  await cache.close();
});

it('installs Claude Code once, saves it, and restores it in the next run without npm', async () => {
  const [world, models] = [cli.world(), cli.models()];
  const panel = await realCliPanel(models);
  // Only the system's PATH: no agent CLI on it, so the action installs what it runs.
  const { PATH: _panelPath, ...env } = panel.extraEnv;
  const inputs = {
    ...panel.inputs,
    reviewers: 'claude:claude-sonnet-4-5',
    mode: 'review',
    'fail-on': 'none',
    'cache-clis': 'true',
  };
  // RUNNER_TOOL_CACHE is one path on every hosted runner (/opt/hostedtoolcache), empty at the start
  // of each job; the cache client files an entry under the path it saved, so both runs use one.
  const toolCache = path.join(world.dir, 'hostedtoolcache');
  const freshRunner = () => {
    rmSync(toolCache, { recursive: true, force: true });
    mkdirSync(toolCache, { recursive: true });
    return toolCache;
  };

  // The action's npm runs under the world's HOME and Node: it gets this machine's CA file the way
  // the suite's own npm reads it (a global npmrc), so it reaches the registry as the suite does.
  const cafile = execFileSync('npm', ['config', 'get', 'cafile'], { encoding: 'utf8' }).trim();
  const npmCa: Record<string, string> = cafile && cafile !== 'null' ? { npm_config_cafile: cafile } : {};
  const first = await world.run({
    inputs,
    extraEnv: { ...env, ...cache.env, ...npmCa, RUNNER_TOOL_CACHE: freshRunner() },
  });
  expect(first.outputs.status, first.stdout + first.stderr).toBe('review-only');
  expect(first.stdout).toMatch(/claude: not on PATH; installing @anthropic-ai\/claude-code@[\d.]+ with npm/);
  expect(first.stdout).toMatch(/cache: saved pr-review-loop-cli-v1-claude-/);
  expect(cache.keys()).toHaveLength(1);

  // The next run: a fresh runner's empty tool cache, and an npm that fails and a registry no one answers.
  const shims = path.join(world.dir, 'shims');
  mkdirSync(shims);
  writeFileSync(path.join(shims, 'npm'), '#!/bin/sh\necho "npm must not run" >&2\nexit 97\n');
  chmodSync(path.join(shims, 'npm'), 0o755);
  await world.sandbox.pushFromAnotherClone({ 'CHANGELOG.md': 'A human note.\n' }, { message: 'Add a changelog' });
  const second = await world.run({
    inputs,
    action: 'synchronize',
    extraEnv: {
      ...env,
      ...cache.env,
      RUNNER_TOOL_CACHE: freshRunner(),
      PATH: `${shims}${path.delimiter}${process.env.PATH}`,
      npm_config_registry: 'http://127.0.0.1:9/',
    },
  });
  expect(second.outputs.status, second.stdout + second.stderr).toBe('review-only');
  expect(second.stdout).toMatch(/cache: restored pr-review-loop-cli-v1-claude-/);
  expect(second.stdout).toMatch(/claude: using @anthropic-ai\/claude-code@[\d.]+ restored from the cache/);
  expect(second.stdout).not.toContain('with npm');
  // The restored CLI did the review.
  expect(world.github.comments(7).at(-1)!.body).toContain(BUG_FINDING.title);
  expect(models.requests.filter((q) => reviewRound(q.transcript) > 0).length).toBeGreaterThanOrEqual(2);
});
