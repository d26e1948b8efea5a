// The bundled action with a mixed panel of REAL agent CLIs (Claude Code, Gemini CLI, Codex
// and OpenCode as reviewers, Claude Code as fixer) against the fake GitHub, a bare origin
// and the fake model server: a full review → fix → re-review loop.
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
  // A resumed reviewer's transcript holds every round's prompt: the last one is this request's.
  const round = Number([...t.matchAll(/review round (\d+)/gi)].at(-1)?.[1] ?? '0');
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

it('runs a full loop with a four-CLI panel of reviewers and a Claude Code fixer', async () => {
  const bins = await Promise.all([cachedCliBin('claude'), cachedCliBin('gemini'), cachedCliBin('codex'), cachedCliBin('opencode')]);
  // What a user puts in agent-config to reach a gateway: here the fake model server.
  const agentConfig = {
    codex: {
      model_provider: 'fake',
      model_providers: { fake: { name: 'Fake', base_url: `${models.url}/v1`, env_key: 'FAKE_API_KEY', wire_api: 'responses', request_max_retries: 0, stream_max_retries: 0 } },
    },
    opencode: {
      provider: {
        fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: `${models.url}/v1`, apiKey: '{env:FAKE_API_KEY}' }, models: { 'fake-model': { name: 'Fake Model' } } },
      },
    },
  };
  const r = await world.run({
    inputs: {
      agent: 'claude',
      'agent-command': '',
      reviewers: 'claude:claude-sonnet-4-5\ngemini:gemini-2.5-pro\ncodex:gpt-5.5\nopencode:fake/fake-model',
      'agent-config': JSON.stringify(agentConfig),
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
      FAKE_API_KEY: KEY,
    },
  });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.outputs.status).toBe('converged');
  expect(r.outputs.rounds).toBe('2');
  const [review1, fix1, review2] = world.github.comments(7).map((c) => c.body);
  expect(review1).toContain('4/4 reviewers');
  for (const model of ['claude-sonnet-4-5', 'gemini-2.5-pro', 'gpt-5.5', 'fake/fake-model']) expect(review1).toContain(model);
  // OpenCode does not say which model answered; the report says so instead of pretending.
  expect(review1).toContain('not reported by CLI');
  expect(fix1).toContain('Fixes pushed');
  expect(review2).toContain('approve');
  const log = await world.headLog();
  expect(log[0]!.parents).toEqual([world.sandbox.headSha]);
  const math = await world.sandbox.originGit(['show', `${log[0]!.sha}:src/math.js`]);
  expect(math.stdout).toContain('return a + b;');
  // Both protocols were spoken, and no request carried the GitHub token.
  expect(new Set(models.requests.map((q) => q.protocol))).toEqual(new Set(['anthropic', 'gemini', 'responses', 'chat']));
  expect(JSON.stringify(models.requests)).not.toContain(TOKEN);
  // Round 2: each CLI resumed its reviewer's session (issue 10): the request carries the round-1
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
