// The fixer resumes its session across rounds, and falls back to a fresh session with the
// earlier rounds in the prompt when the CLI cannot resume. Driven through a real registry
// with an adapter that behaves like a CLI whose stored session disappeared.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRegistry } from '../../src/agents/registry.js';
import type { AgentAdapter, Invocation } from '../../src/agents/types.js';
import type { FixEnv } from '../../src/fix/env.js';
import { callFixer } from '../../src/fix/fixer.js';
import { buildFixPayload } from '../../src/fix/payload.js';
import { loadPrompts } from '../../src/roles/prompts.js';
import { createGitSandbox, type GitSandbox } from '../fakes/git-sandbox.js';
import { prContext, PROMPTS_URL } from '../factories.js';
import { sessionfulAdapter } from './sessionful-adapter.js';

const answer = (ids: string[]) =>
  `BEGIN_JSON\n${JSON.stringify({ fixedIssues: ids.map((findingId) => ({ findingId, description: 'done' })), rejectedIssues: [], commits: [] })}\nEND_JSON`;

let sandbox: GitSandbox;
let scratch: string;
beforeEach(async () => {
  sandbox = await createGitSandbox();
  scratch = await mkdtemp(path.join(tmpdir(), 'fixer-session-'));
});
afterEach(async () => {
  await sandbox.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

async function env(adapter: AgentAdapter): Promise<FixEnv> {
  return {
    registry: createRegistry({ adapters: { claude: adapter } }),
    prompts: await loadPrompts(PROMPTS_URL),
    workDir: sandbox.workDir,
    scratchDir: scratch,
    timeoutMs: 10_000,
    git: sandbox.git,
    fixer: { agent: 'claude', model: 'm' },
    gateMaxLoops: 1,
    verify: [],
    dryRun: false,
    verifyEnv: {},
    redact: (t) => t,
    log: () => {},
    session: { id: null, history: [] },
    commitExclude: [],
    confirm: 'none',
    alreadyConfirmed: new Set(),
    beforePush: async () => false,
    pushRemote: 'origin',
  };
}

/** The fixer's call in a round; the payload's content is not what these tests are about. */
const fixCall = (round: number) => ({
  ctx: prContext(),
  round,
  loop: 1,
  payload: buildFixPayload(prContext().meta.number, round, []),
  feedback: '',
});

it('resumes the same session in the next round', async () => {
  const calls: Invocation[] = [];
  const e = await env(
    sessionfulAdapter(
      calls,
      () => false,
      (inv) => answer([`BUG-${inv.round}`]),
    ),
  );
  await callFixer(e, fixCall(1));
  const second = await callFixer(e, fixCall(2));
  expect(second.outcome.ok).toBe(true);
  expect(calls.map((c) => c.sessionId ?? null)).toEqual([null, 's1']);
  expect(calls[0]!.stateDir).toBe(calls[1]!.stateDir);
});

it('starts a fresh session with the earlier rounds in the prompt when resuming fails', async () => {
  const calls: Invocation[] = [];
  let forgetNow = false;
  const e = await env(
    sessionfulAdapter(
      calls,
      () => forgetNow,
      (inv) => answer([`BUG-${inv.round}`]),
    ),
  );
  await callFixer(e, fixCall(1));
  forgetNow = true;
  const second = await callFixer(e, fixCall(2));
  expect(second.outcome.ok).toBe(true);
  expect(calls.map((c) => c.sessionId ?? null)).toEqual([null, 's1', null]);
  expect(calls[2]!.prompt).toContain('Earlier in this run');
  expect(calls[2]!.prompt).toContain('Round 1: fixed BUG-1');
  expect(calls[0]!.prompt).not.toContain('Earlier in this run');
  expect(e.session.id).toBe('s2');
});
