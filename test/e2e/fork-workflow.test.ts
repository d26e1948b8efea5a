// The shipped fork workflow (examples/fork-review.yml) as the runner would run it: a fork PR,
// pull_request_target with the `review-loop` label, the checkout at the base branch (the workflow's
// actions/checkout has no ref:), the action step's inputs read from the file, and the REAL Claude Code
// as the reviewer with the key the workflow passes (`secrets.ANTHROPIC_API_KEY`, which this event has).
// The fork's code must never run: no fixer, no verify, no hook, nothing pushed; the report is posted
// as a comment on the PR.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import YAML from 'yaml';
import { cachedCliBin } from '../agents/cli-cache.js';
import type { ModelRequest, Reply } from '../fakes/model-server/index.js';
import { FORK, forkEvent } from './fork-event.js';
import { createWorld, ROOT, type World } from './harness.js';
import { panelWorld } from './panel-world.js';
import { PANEL_KEY, plantedBugReview } from './real-cli-panel.js';

interface Step {
  uses?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
}
const workflow = YAML.parse(readFileSync(path.join(ROOT, 'examples/fork-review.yml'), 'utf8'));
const steps: Step[] = workflow.jobs.review.steps;
const action = steps.find((s) => s.uses?.includes('pr-review-loop'))!;
const cli = panelWorld((req: ModelRequest): Reply => plantedBugReview(req.transcript));

let world: World;

it('reviews a labelled fork PR with the key, posts the report, and runs none of its code', async () => {
  expect(workflow.on).toEqual({ pull_request_target: { types: ['labeled'] } });
  expect(workflow.permissions.contents).toBe('read');
  expect(Object.keys(action.env ?? {})).toContain('ANTHROPIC_API_KEY');
  world = await createWorld({ pull: { headRepoFullName: FORK } });
  try {
    const eventPath = await forkEvent(world);
    const event = JSON.parse(readFileSync(eventPath, 'utf8'));
    await writeFile(eventPath, JSON.stringify({ ...event, action: 'labeled', label: { name: 'review-loop' } }));
    const bin = await cachedCliBin('claude');
    const inputs = Object.fromEntries(Object.entries(action.with!).map(([k, v]) => [k, String(v)]));
    // The workflow's reviewers are Claude Code and Codex; here Claude Code alone, pointed at the fake
    // model server (Codex's provider wiring is tested with the real-CLI panel).
    const claudeOnly = inputs
      .reviewers!.split('\n')
      .filter((l) => l.startsWith('claude:'))
      .join('\n');
    const r = await world.run({
      eventName: 'pull_request_target',
      action: 'labeled',
      checkout: 'base',
      inputs: { ...inputs, reviewers: claudeOnly, agent: 'claude', 'agent-command': '' },
      extraEnv: {
        GITHUB_EVENT_PATH: eventPath,
        PATH: [path.dirname(bin), process.env.PATH].join(path.delimiter),
        ANTHROPIC_BASE_URL: cli.models().url,
        ANTHROPIC_API_KEY: PANEL_KEY,
        CLAUDE_CODE_MAX_RETRIES: '0',
      },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // The reviewer found the planted bug; the report is a comment on the PR.
    expect(r.outputs.p1, r.stdout).toBe('1');
    const comments = world.github.comments(7).map((c) => c.body);
    expect(comments.some((b) => b.includes('Review round 1'))).toBe(true);
    // Review only: no fixer was asked, no verify command or hook ran, nothing was pushed.
    expect(cli.models().requests.length).toBeGreaterThan(0);
    expect(r.stdout).not.toMatch(/^verify: /m);
    expect(r.stdout).not.toMatch(/fixer/i);
    expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
  } finally {
    await world.close();
  }
});
