// The CLIs a run sets up: every kind its roles and their fallbacks name; on a run that only answers
// replies, the answerer's alone (the first reviewer's and its fallbacks), so no other is installed
// while the person who replied waits.
import { expect, it } from 'vitest';
import { agentKindsFor } from '../../src/run-agents.js';

const config = {
  reviewers: [
    { agent: 'claude' as const, model: 'claude-sonnet-4-5', fallbacks: [{ agent: 'opencode' as const, model: 'x/y' }] },
    { agent: 'codex' as const, model: 'gpt-5-codex' },
  ],
  analyzer: { agent: 'claude' as const, model: 'claude-sonnet-4-5' },
  fixer: { agent: 'claude' as const, model: 'claude-sonnet-4-5' },
  gateReviewer: { agent: 'gemini' as const, model: 'gemini-2.5-pro' },
};

it('sets up every role on a run that reviews', () => {
  expect(agentKindsFor(config, false).sort()).toEqual(['claude', 'codex', 'gemini', 'opencode']);
});

it("sets up only the answerer's kinds on a run that only answers", () => {
  expect(agentKindsFor(config, true)).toEqual(['claude', 'opencode']);
});
