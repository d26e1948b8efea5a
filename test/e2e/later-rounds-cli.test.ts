// Later rounds with the real Claude Code CLI against the fake model server: the
// round-2 reviewer resumes its session, is told which finding the fixer rejected and why, and a
// model that respects the reason does not report it again; the loop converges.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { envelopeText, type ModelRequest, type Reply } from '../fakes/model-server/index.js';
import { panelWorld } from './panel-world.js';
import { realCliPanel, reviewRound } from './real-cli-panel.js';
import { BUG_FINDING, DOC_FINDING, reviewerAnswer } from './scenarios.js';

const REASON = 'The README is generated from the JSDoc; an edit there would be overwritten.';
/** Fixes add() and rejects the README finding with REASON. */
function fixer(req: ModelRequest): Reply {
  if (req.resultsSincePrompt === 0) {
    return {
      tool: { name: 'Bash', input: { command: "sed -i 's/a - b/a + b/' src/math.js", description: 'fix add' } },
    };
  }
  const contextDir = [...req.transcript.matchAll(/context folder `([^`]+)`/g)].at(-1)![1]!;
  const payload = JSON.parse(readFileSync(path.join(contextDir, 'fix-payload.json'), 'utf8')) as {
    issuesToFix: { id: string; title: string }[];
    optionalIssues: { id: string; title: string }[];
  };
  const all = [...payload.issuesToFix, ...payload.optionalIssues];
  const doc = all.filter((f) => f.title.includes('README'));
  const rest = all.filter((f) => !f.title.includes('README'));
  return {
    text: envelopeText({
      agent: 'pr-fix',
      prNumber: 7,
      summary: { fixed: rest.length, rejected: doc.length, deferred: 0 },
      fixedIssues: rest.map((f) => ({ findingId: f.id, commitSha: null, description: 'add() adds again' })),
      rejectedIssues: doc.map((f) => ({ findingId: f.id, reason: REASON })),
      commits: [],
    }),
  };
}

/** A reviewer: both problems in round 1; later, the README one again unless its prompt says why it was rejected. */
function script(req: ModelRequest): Reply {
  const t = req.transcript;
  if (t.includes('You are the fix agent')) return fixer(req);
  const round = reviewRound(t);
  if (round === 0) return { text: 'ok' };
  if (round === 1) return { text: envelopeText(reviewerAnswer([BUG_FINDING, DOC_FINDING])) };
  const respected = t.includes(REASON) && t.includes('"fate":"rejected"');
  return { text: envelopeText(reviewerAnswer(respected ? [] : [DOC_FINDING])) };
}

const cli = panelWorld(script);

it("a resumed Claude Code reviewer is told the fixer's reason and does not report the rejected finding again", async () => {
  const [world, models] = [cli.world(), cli.models()];
  const panel = await realCliPanel(models);
  const r = await world.run({ ...panel, inputs: { ...panel.inputs, reviewers: 'claude:claude-sonnet-4-5' } });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.outputs.status, r.stdout).toBe('converged');
  expect(r.outputs.rounds).toBe('2');
  const round2 = models.requests.filter((q) => q.transcript.includes('Review round 2 of'));
  expect(round2).toHaveLength(1);
  // Resumed (the round-1 prompt is in the session) and told the fate in the prompt itself.
  expect(round2[0]!.transcript).toContain('(review round 1)');
  expect(round2[0]!.transcript).toContain(REASON);
  const [, fix1, review2] = world.github.comments(7).map((c) => c.body);
  expect(fix1).toContain(REASON);
  expect(review2).not.toContain(DOC_FINDING.title);
});
