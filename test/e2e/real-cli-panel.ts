// The bundled action's inputs and environment for a panel of the real agent CLIs (Claude Code,
// Gemini CLI, Codex and OpenCode as reviewers, Claude Code as fixer) pointed at the fake model
// server: what a user puts in agent-config and the step's env to reach a gateway.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cachedCliBin } from '../agents/cli-cache.js';
import { envelopeText, type FakeModelServer, type ModelRequest, type Reply } from '../fakes/model-server/index.js';
import { BUG_FINDING, reviewerAnswer } from './scenarios.js';

export const PANEL_KEY = 'sk-fake-model-key';
const PANEL_REVIEWERS = 'claude:claude-sonnet-4-5\ngemini:gemini-2.5-pro\ncodex:gpt-5.5\nopencode:fake/fake-model';

export async function realCliPanel(models: FakeModelServer) {
  const bins = await Promise.all(['claude', 'gemini', 'codex', 'opencode'].map((k) => cachedCliBin(k as 'claude')));
  const agentConfig = {
    codex: {
      model_provider: 'fake',
      model_providers: {
        fake: {
          name: 'Fake',
          base_url: `${models.url}/v1`,
          env_key: 'FAKE_API_KEY',
          wire_api: 'responses',
          request_max_retries: 0,
          stream_max_retries: 0,
        },
      },
    },
    opencode: {
      provider: {
        fake: {
          npm: '@ai-sdk/openai-compatible',
          name: 'Fake',
          options: { baseURL: `${models.url}/v1`, apiKey: '{env:FAKE_API_KEY}' },
          models: { 'fake-model': { name: 'Fake Model' } },
        },
      },
    },
  };
  return {
    inputs: {
      agent: 'claude',
      'agent-command': '',
      reviewers: PANEL_REVIEWERS,
      'agent-config': JSON.stringify(agentConfig),
      fixer: 'claude:claude-sonnet-4-5',
      verify: 'npm test',
    },
    extraEnv: {
      PATH: [...bins.map((b) => path.dirname(b)), process.env.PATH].join(path.delimiter),
      ANTHROPIC_BASE_URL: models.url,
      ANTHROPIC_API_KEY: PANEL_KEY,
      CLAUDE_CODE_MAX_RETRIES: '0',
      GOOGLE_GEMINI_BASE_URL: models.url,
      GEMINI_API_KEY: PANEL_KEY,
      GEMINI_CLI_NO_RELAUNCH: 'true',
      FAKE_API_KEY: PANEL_KEY,
    },
  };
}

/** The panel's Claude Code fixer: fixes add() through its shell tool, then reports every finding fixed. */
export function panelFixerReply(req: ModelRequest): Reply {
  if (req.resultsSincePrompt === 0) {
    return {
      tool: { name: 'Bash', input: { command: "sed -i 's/a - b/a + b/' src/math.js", description: 'fix add' } },
    };
  }
  const contextDir = [...req.transcript.matchAll(/context folder `([^`]+)`/g)].at(-1)![1]!;
  const payload = JSON.parse(readFileSync(path.join(contextDir, 'fix-payload.json'), 'utf8')) as {
    issuesToFix: { id: string }[];
  };
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

/**
 * The review round a request belongs to: the last "review round N" of its transcript (a resumed
 * reviewer's holds every round's prompt), or 0 for a side request (titles, summaries).
 */
export function reviewRound(transcript: string): number {
  return Number([...transcript.matchAll(/review round (\d+)/gi)].at(-1)?.[1] ?? '0');
}

/** A reviewer of the demo PR: the planted bug in round 1, clean after; 'ok' to a side request. */
export function plantedBugReview(transcript: string): Reply {
  const round = reviewRound(transcript);
  if (round === 0) return { text: 'ok' };
  return { text: envelopeText(reviewerAnswer(round === 1 ? [BUG_FINDING] : [])) };
}
