// The last phase of a run (run.ts): the after-finish hook, the hand-off of a converged PR, the job
// summary, and the run's result with its fail-on gate. A run whose reviewers have no key ends here
// too, with nothing started: no hook runs and nothing is handed off.
import type { Budget } from './budget/budget.js';
import type { ResolvedConfig } from './config/repo-config.js';
import type { LoopResult } from './domain/loop.js';
import type { PrMeta, RepoRef } from './domain/pull-request.js';
import type { Octokit } from './github/client.js';
import { finishLoop, type LoopSteps } from './loop.js';
import type { ReportContext } from './report/format.js';
import { handOff } from './report/hand-off.js';
import { renderFinalSummary } from './report/markdown.js';
import { nothingReviewed } from './report/nothing-reviewed.js';
import type { Publisher } from './report/publish.js';

/** The loop's result as run.ts turns it into outputs and the fail-on gate. */
export type Execution = LoopResult & {
  failOn: 'none' | 'P0' | 'P1' | 'P2';
  /** The run reviewed nothing: no reviewer had a key, or none could authenticate (report/nothing-reviewed.ts). */
  nothingReviewed?: { line: string; log: string };
};

export interface EndInput {
  config: Pick<ResolvedConfig, 'failOn' | 'dryRun' | 'readyWhenConverged' | 'convergedLabel'>;
  env: NodeJS.ProcessEnv;
  octokit: Octokit;
  repo: RepoRef;
  meta: Pick<PrMeta, 'number'>;
  publisher: Pick<Publisher, 'summaryOnly' | 'writesRefused'>;
  reportCtx: ReportContext;
  budget: Pick<Budget, 'spending'>;
  /** A checks-only run hands nothing over: no agent reviewed the code. */
  ciOnly: boolean;
  /** A fork's pull_request run: what reviewed nothing says why GitHub gave it no keys. */
  forkPullRequest: boolean;
  log: (line: string) => void;
  warn: (line: string) => void;
}

/** The result of a run that started nothing because no reviewer has a key (`why` says which). */
export function nothingStarted(headSha: string, why: string): LoopResult {
  return { status: 'skipped', message: why, rounds: [], headSha, remaining: [], stuck: [], last: null };
}

/** `steps`: the loop's, for its after-finish hook; null when nothing was started. */
export async function endRun(
  e: EndInput,
  result: LoopResult,
  steps: Pick<LoopSteps, 'hook'> | null,
): Promise<Execution> {
  const { config, publisher } = e;
  if (steps) {
    await finishLoop(steps, e.meta.number, result);
    await handOff(
      {
        octokit: e.octokit,
        repo: e.repo,
        prNumber: e.meta.number,
        readyWhenConverged: config.readyWhenConverged,
        log: e.log,
        warn: e.warn,
        writes: !config.dryRun && !publisher.writesRefused && !e.ciOnly,
        ...(config.convergedLabel ? { convergedLabel: config.convergedLabel } : {}),
      },
      result,
    );
  }
  const { status, rounds, remaining, stuck, message, unchecked } = result;
  const spent = e.budget.spending();
  const final = { status, rounds, remaining, stuck, message, spent, ...(unchecked ? { unchecked } : {}) };
  await publisher.summaryOnly(renderFinalSummary(final, e.reportCtx));
  // A failed loop already explained itself in its last report comment (status "failed"). The loop
  // ends skipped only when no reviewer had a key or none could authenticate (termination.ts).
  const unreviewed =
    result.status === 'skipped'
      ? nothingReviewed({ why: result.message, forkPullRequest: e.forkPullRequest }, e.env)
      : null;
  return { ...result, failOn: config.failOn, ...(unreviewed ? { nothingReviewed: unreviewed } : {}) };
}
