// The bundled action with a mixed panel of REAL agent CLIs (Claude Code and Gemini CLI as
// reviewers, Claude Code as fixer) against the fake GitHub, a bare origin and the fake
// model server: a full review → fix → re-review loop.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cachedCliBin } from '../agents/cli-cache.js';
import { envelopeText, startFakeModelServer, type FakeModelServer, type ModelRequest, type Reply } from '../fakes/model-server/index.js';
import { createWorld, TOKEN, type World } from './harness.js';
import { BUG_FINDING, reviewerAnswer } from './scenarios.js';

const KEY = 'sk-fake-model-key';
let world: World;
let models: FakeModelServer;

/** Plays reviewers (a bug in round 1, clean after) and a fixer that edits through its shell tool. */
function script(req: ModelRequest): Reply {
  const t = req.transcript;
  if (t.includes('You are the fix agent')) {
    if (req.resultsSincePrompt === 0) {
      return { tool: { name: 'Bash', input: { command: "sed -i 's/a - b/a + b/' src/math.js", description: 'fix add' } } };
    }
    const contextDir = /context folder `([^`]+)`/.exec(t)![1]!;
    const payload = JSON.parse(readFileSync(path.join(contextDir, 'fix-payload.json'), 'utf8')) as { issuesToFix: { id: string }[] };
    const ids = payload.issuesToFix.map((f) => f.id);
    return {
      text: envelopeText({
        agent: 'pr-fix',
        prNumber: 7,
        summary: { fixed: ids.length, rejected: 0, deferred: 0 },
        fixedIssues: ids.map((findingId) => ({ findingId, commitSha: null, description: 'add() adds again' })),
        rejectedIssues: [],
        commits: [],
      }),
    };
  }
  const round = Number(/review round (\d+)/.exec(t)?.[1] ?? '0');
  if (round === 0) return { text: 'ok' }; // a side request (titles, summaries)
  return { text: envelopeText(reviewerAnswer(round === 1 ? [BUG_FINDING] : [])) };
}

beforeAll(async () => {
  models = await startFakeModelServer({ apiKey: KEY, script });
  world = await createWorld();
});
afterAll(async () => {
  await world?.close();
  await models?.close();
});

it('runs a full loop with Claude Code and Gemini CLI reviewers and a Claude Code fixer', async () => {
  const bins = await Promise.all([cachedCliBin('claude'), cachedCliBin('gemini')]);
  const r = await world.run({
    inputs: {
      agent: 'claude',
      'agent-command': '',
      reviewers: 'claude:claude-sonnet-4-5\ngemini:gemini-2.5-pro',
      fixer: 'claude:claude-sonnet-4-5',
      verify: 'npm test',
    },
    extraEnv: {
      PATH: [...bins.map((b) => path.dirname(b)), process.env.PATH].join(path.delimiter),
      ANTHROPIC_BASE_URL: models.url,
      ANTHROPIC_API_KEY: KEY,
      CLAUDE_CODE_MAX_RETRIES: '0',
      GOOGLE_GEMINI_BASE_URL: models.url,
      GEMINI_API_KEY: KEY,
      GEMINI_CLI_NO_RELAUNCH: 'true',
    },
  });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.outputs.status).toBe('converged');
  expect(r.outputs.rounds).toBe('2');
  const [review1, fix1, review2] = world.github.comments(7).map((c) => c.body);
  expect(review1).toContain('2/2 reviewers');
  expect(review1).toContain('claude-sonnet-4-5');
  expect(review1).toContain('gemini-2.5-pro');
  expect(fix1).toContain('Fixes pushed');
  expect(review2).toContain('approve');
  const log = await world.headLog();
  expect(log[0]!.parents).toEqual([world.sandbox.headSha]);
  const math = await world.sandbox.originGit(['show', `${log[0]!.sha}:src/math.js`]);
  expect(math.stdout).toContain('return a + b;');
  // Both protocols were spoken, and no request carried the GitHub token.
  expect(new Set(models.requests.map((q) => q.protocol))).toEqual(new Set(['anthropic', 'gemini']));
  expect(JSON.stringify(models.requests)).not.toContain(TOKEN);
}, 240_000);
