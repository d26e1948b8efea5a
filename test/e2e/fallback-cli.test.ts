// Fallback models with the REAL agent CLIs against the fake model server: Claude Code gets a 529
// (overloaded), Gemini CLI a spent daily quota and Codex, as the fixer, OpenAI's
// insufficient_quota; each role's fallback (Codex, OpenCode, Claude Code) answers, the loop
// converges, and the report names the model that answered and what each CLI said.
import { expect, it } from 'vitest';
import type { ModelRequest, Reply } from '../fakes/model-server/index.js';
import { panelWorld } from './panel-world.js';
import { panelFixerReply, plantedBugReview, realCliPanel } from './real-cli-panel.js';

const isFixer = (req: ModelRequest) => req.transcript.includes('You are the fix agent');

function script(req: ModelRequest): Reply {
  if (isFixer(req)) {
    if (req.protocol === 'responses') return { error: 429, quota: true, message: 'You exceeded your quota.' };
    return panelFixerReply(req);
  }
  if (req.protocol === 'anthropic') return { error: 529, message: 'Overloaded' };
  if (req.protocol === 'gemini') return { error: 429, quota: true, message: 'Quota exceeded for the day.' };
  return plantedBugReview(req.transcript);
}

const cli = panelWorld(script);

it('falls back from an overloaded Claude Code, a Gemini CLI and a Codex fixer out of quota', async () => {
  const [world, models] = [cli.world(), cli.models()];
  const panel = await realCliPanel(models);
  const inputs = {
    ...panel.inputs,
    reviewers: 'claude:claude-sonnet-4-5 || codex:gpt-5.5\ngemini:gemini-2.5-pro || opencode:fake/fake-model',
    fixer: 'codex:gpt-5.5 || claude:claude-sonnet-4-5',
  };
  const r = await world.run({ ...panel, inputs });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.outputs.status).toBe('converged');
  const [review1, fix1] = world.github.comments(7).map((c) => c.body);
  const row = (body: string, name: string) => body.split('\n').find((l) => l.startsWith(`| ${name} `))!;
  const after = (spec: string) => `fallback, asked after \`${spec}\``;
  expect(row(review1!, 'reviewer-1')).toContain('`gpt-5.5`');
  expect(row(review1!, 'reviewer-1')).toMatch(/: overloaded \(.*API Error: 529 Overloaded/);
  expect(row(review1!, 'reviewer-1')).toContain(after('claude:claude-sonnet-4-5'));
  expect(row(review1!, 'reviewer-2')).toContain(after('gemini:gemini-2.5-pro'));
  expect(row(review1!, 'reviewer-2')).toMatch(/: quota \(.*You have exhausted your daily quota/);
  expect(row(fix1!, 'fixer')).toContain('`claude-sonnet-4-5`');
  expect(row(fix1!, 'fixer')).toContain(after('codex:gpt-5.5'));
  expect(row(fix1!, 'fixer')).toMatch(/: quota \(.*Quota exceeded\. Check your plan and billing details/);
  expect(fix1).toContain('Fixes pushed');
  // Each CLI gave up by itself at once: one request per failed call, no back-off.
  const failed = models.requests.filter((q) => 'error' in q.reply);
  const perCall = new Map<string, number>();
  for (const q of failed) perCall.set(q.protocol, (perCall.get(q.protocol) ?? 0) + 1);
  expect(perCall.get('gemini')).toBe(2);
  expect(perCall.get('responses')).toBe(1);
}, 240_000);
