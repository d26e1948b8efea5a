// The bundled action with a mixed panel of REAL agent CLIs (Claude Code, Gemini CLI, Codex
// and OpenCode as reviewers, Claude Code as fixer) against the fake GitHub, a bare origin
// and the fake model server: a full review → fix → re-review loop.
import { expect, it } from 'vitest';
import type { ModelRequest, Reply } from '../fakes/model-server/index.js';
import { TOKEN } from './harness.js';
import { panelWorld } from './panel-world.js';
import { panelFixerReply, plantedBugReview, realCliPanel } from './real-cli-panel.js';

/** Plays reviewers (a bug in round 1, clean after) and a fixer that edits through its shell tool. */
function script(req: ModelRequest): Reply {
  return req.transcript.includes('You are the fix agent') ? panelFixerReply(req) : plantedBugReview(req.transcript);
}

const cli = panelWorld(script);

it('runs a full loop with a four-CLI panel of reviewers and a Claude Code fixer', async () => {
  const [world, models] = [cli.world(), cli.models()];
  const r = await world.run(await realCliPanel(models));
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.outputs.status).toBe('converged');
  expect(r.outputs.rounds).toBe('2');
  const [review1, fix1, review2] = world.github.comments(7).map((c) => c.body);
  expect(review1).toContain('4/4 reviewers');
  for (const model of ['claude-sonnet-4-5', 'gemini-2.5-pro', 'gpt-5.5', 'fake/fake-model'])
    expect(review1).toContain(model);
  // OpenCode does not say which model answered; the report says so instead of pretending.
  expect(review1).toContain('not reported by CLI');
  expect(fix1).toContain('Fixes pushed');
  expect(review2).toContain('approve');
  const log = await world.headLog();
  expect(log[0]!.parents).toEqual([world.sandbox.headSha]);
  const math = await world.sandbox.originGit(['show', `${log[0]!.sha}:src/math.js`]);
  expect(math.stdout).toContain('return a + b;');
  // Both protocols were spoken, and no request carried the GitHub token.
  expect(new Set(models.requests.map((q) => q.protocol))).toEqual(
    new Set(['anthropic', 'gemini', 'responses', 'chat']),
  );
  expect(JSON.stringify(models.requests)).not.toContain(TOKEN);
  // Round 2: each CLI resumed its reviewer's session: the request carries the round-1
  // prompt before the short resumed one, and not the whole reviewer prompt again.
  for (const protocol of ['anthropic', 'gemini', 'responses', 'chat']) {
    const round2 = models.requests.filter((q) => q.protocol === protocol && q.transcript.includes('Review round 2 of'));
    expect(round2.length, protocol).toBeGreaterThan(0);
    for (const q of round2) {
      expect(q.transcript, protocol).toContain('You reviewed this PR earlier in this session');
      expect(q.transcript.match(/You are a senior code reviewer/g), protocol).toHaveLength(1);
      expect(q.transcript, protocol).toContain('(review round 1)');
    }
  }
}, 240_000);
