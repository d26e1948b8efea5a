// Two phases of a run alone, without GitHub, git or agents: what src/run-decide.ts decides from the
// event and the environment, and what src/run-end.ts makes of a loop's result.
import { describe, expect, it } from 'vitest';
import { createBudget } from '../../src/budget/budget.js';
import { priceTable } from '../../src/budget/prices.js';
import type { LoopResult } from '../../src/domain/loop.js';
import type { Octokit } from '../../src/github/client.js';
import { decisions } from '../../src/run-decide.js';
import { endRun, nothingStarted, type EndInput } from '../../src/run-end.js';

const claude = { agent: 'claude' as const, model: 'claude-sonnet-4-5' };
const codex = { agent: 'codex' as const, model: 'gpt-5.5' };
const roles = { reviewers: [claude, codex], analyzer: claude, fixer: claude, gateReviewer: null, agentConfig: {} };
type Input = Parameters<typeof decisions>[0];
const config = roles as unknown as Input['config'];
const same = { headRepoFullName: 'acme/app', baseRepoFullName: 'acme/app' };
const fromFork = { headRepoFullName: 'someone/app', baseRepoFullName: 'acme/app' };
const pullRequest = { kind: 'pull_request' as const, eventName: 'pull_request' as const };
const keys = { ANTHROPIC_API_KEY: 'k1', OPENAI_API_KEY: 'k2' };
// What a fork PR's pull_request run gets: the secrets' variables, set but empty.
const noKeys = { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' };

describe('decisions (phase two, before any request or process)', () => {
  it('a PR from the repository itself, with keys: not a fork, every reviewer may review', () => {
    const d = decisions({ meta: same, target: pullRequest, config, env: keys });
    expect(d).toEqual({ fork: false, ciOnly: false, forkPullRequest: false, keyless: new Map(), noKeys: null });
  });

  it('tells a fork by the repository names, whatever their case', () => {
    const upper = { headRepoFullName: 'ACME/App', baseRepoFullName: 'acme/app' };
    expect(decisions({ meta: upper, target: pullRequest, config, env: keys }).fork).toBe(false);
    expect(decisions({ meta: fromFork, target: pullRequest, config, env: keys }).fork).toBe(true);
  });

  it("a fork's pull_request run with empty keys: nothing can be reviewed, and it says which keys", () => {
    const d = decisions({ meta: fromFork, target: pullRequest, config, env: noKeys });
    expect(d.forkPullRequest).toBe(true);
    expect([...d.keyless.keys()]).toEqual(['claude:claude-sonnet-4-5', 'codex:gpt-5.5']);
    expect(d.noKeys).toBe('ANTHROPIC_API_KEY and OPENAI_API_KEY are set but empty');
  });

  it('one reviewer with a key is enough; the keyless one is named but the run goes on', () => {
    const d = decisions({ meta: fromFork, target: pullRequest, config, env: { ...noKeys, OPENAI_API_KEY: 'k2' } });
    expect([...d.keyless.keys()]).toEqual(['claude:claude-sonnet-4-5']);
    expect(d.noKeys).toBeNull();
  });

  it('pull_request_target gets the secrets: a fork PR there is not a keyless fork run', () => {
    const target = { kind: 'pull_request' as const, eventName: 'pull_request_target' as const };
    expect(decisions({ meta: fromFork, target, config, env: keys }).forkPullRequest).toBe(false);
  });

  it('a red CI run fixes checks only and needs no reviewer key', () => {
    const target = { kind: 'workflow_run' as const, eventName: 'workflow_run' as const };
    const d = decisions({ meta: same, target, config, env: noKeys });
    expect(d.ciOnly).toBe(true);
    expect(d.keyless.size).toBe(2);
    expect(d.noKeys).toBeNull();
  });
});

/** An Octokit that fails the test on any use: the ending must not write in these cases. */
const untouchable = new Proxy({} as Octokit, {
  get(_t, name) {
    throw new Error(`the ending used octokit.${String(name)}`);
  },
});

type Over = Partial<Omit<EndInput, 'config'>> & { config?: Partial<EndInput['config']> };

function ending(over: Over = {}) {
  const summaries: string[] = [];
  const logs: string[] = [];
  const input: EndInput = {
    env: {},
    octokit: untouchable,
    repo: { owner: 'acme', repo: 'app' },
    meta: { number: 7 },
    publisher: { summaryOnly: async (m) => void summaries.push(m), writesRefused: null },
    reportCtx: {
      serverUrl: 'https://github.com',
      owner: 'acme',
      repo: 'app',
      prNumber: 7,
      runUrl: null,
      maxRounds: 3,
      mode: 'fix',
      dryRun: false,
    },
    budget: createBudget({}, priceTable()),
    ciOnly: false,
    forkPullRequest: false,
    log: (l) => logs.push(l),
    warn: (l) => logs.push(`warning: ${l}`),
    ...over,
    config: { failOn: 'P1', dryRun: false, readyWhenConverged: true, convergedLabel: 'converged', ...over.config },
  };
  return { input, summaries, logs };
}

const converged: LoopResult = {
  status: 'converged',
  message: 'No blocking findings left.',
  rounds: [],
  headSha: 'a'.repeat(40),
  remaining: [],
  stuck: [],
  last: null,
};

/** The loop's steps as far as the ending uses them: the after-finish hook, recorded. */
function hookRecorder() {
  const calls: [string, Record<string, unknown>][] = [];
  return {
    calls,
    steps: { hook: async (point: string, info: Record<string, unknown>) => (calls.push([point, info]), []) },
  };
}

describe('endRun (the last phase)', () => {
  it('runs the after-finish hook with the outcome, writes the summary, and carries fail-on', async () => {
    const { input, summaries } = ending({ config: { dryRun: true } });
    const hook = hookRecorder();
    const result = await endRun(input, converged, hook.steps);
    expect(hook.calls).toEqual([
      ['after-finish', { prNumber: 7, headSha: converged.headSha, status: 'converged', rounds: 0, remaining: [] }],
    ]);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toContain('Converged: no blocking findings left');
    expect(summaries[0]).toContain('No blocking findings left.');
    expect(result).toEqual({ ...converged, failOn: 'P1' });
  });

  it('hands nothing over (no label, no ready) in a dry run, a checks-only run, or with writes refused', async () => {
    // The Octokit throws on any use: a hand-off attempt would leave its warning in the logs.
    const cases: Over[] = [
      { config: { dryRun: true } },
      { ciOnly: true },
      { publisher: { summaryOnly: async () => undefined, writesRefused: 'read-only token' } },
    ];
    for (const over of cases) {
      const { input, logs } = ending(over);
      await expect(endRun(input, converged, hookRecorder().steps)).resolves.toMatchObject({ status: 'converged' });
      expect(logs).toEqual([]);
    }
  });

  it('a hand-off that may write does write: the label of a converged run is asked for', async () => {
    const { input, logs } = ending();
    await endRun(input, converged, hookRecorder().steps);
    // The untouchable Octokit refused; hand-off.ts turns that into a warning naming the permission.
    expect(logs.join('\n')).toMatch(/could not add the label "converged".*pull-requests: write/);
  });

  it('a run that started nothing: no hook, no hand-off, a skipped summary and why nothing was reviewed', async () => {
    const { input, summaries } = ending({ forkPullRequest: true });
    const none = nothingStarted('b'.repeat(40), 'No reviewer has a key: ANTHROPIC_API_KEY is set but empty.');
    const result = await endRun(input, none, null);
    expect(result.status).toBe('skipped');
    expect(result.headSha).toBe('b'.repeat(40));
    expect(result.failOn).toBe('P1');
    expect(summaries[0]).toContain('Skipped');
    expect(summaries[0]).toContain('ANTHROPIC_API_KEY is set but empty');
    expect(result.nothingReviewed?.line).toContain('No reviewer has a key: ANTHROPIC_API_KEY is set but empty.');
    // A fork's pull_request run is told why GitHub gave it no keys.
    expect(result.nothingReviewed?.log).toContain('pull_request_target');
  });

  it('a loop that ended skipped (no reviewer could authenticate) says it reviewed nothing too', async () => {
    const { input } = ending({ config: { dryRun: true } });
    const skipped = { ...converged, status: 'skipped' as const, message: 'Every reviewer failed to authenticate.' };
    const result = await endRun(input, skipped, hookRecorder().steps);
    expect(result.nothingReviewed?.log).toContain('Every reviewer failed to authenticate.');
    expect(result.nothingReviewed?.log).not.toContain('pull_request_target');
  });
});
