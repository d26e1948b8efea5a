// Phase four of a run (run.ts): the loop's real steps (loop-steps.ts), made cancellable when the
// run can be cancelled, and what the loop starts from: the rounds allowed, the push plan and the
// memory of earlier runs. run.ts then runs the loop on them.
import { cancellableSteps } from './cancellable-steps.js';
import { createCiChecks } from './ci/tracker.js';
import type { TokenIdentity } from './github/identity.js';
import type { LoopInput, LoopSteps } from './loop.js';
import { loopSteps, type RunWiring } from './loop-steps.js';
import type { PriorRuns } from './preflight/memory.js';
import { modelName } from './config/same-model.js';

export interface LoopPlanInput extends Omit<RunWiring, 'ci' | 'alreadyConfirmed' | 'cachedDismissals'> {
  /** What earlier runs of this job left that the rounds go on from (preflight/memory.ts). */
  prior: Pick<
    PriorRuns,
    'confirmed' | 'dismissed' | 'ciAttempts' | 'fixed' | 'lastReview' | 'decisions' | 'refusedAnswers'
  >;
  /** This workflow run: its own checks are not waited for. */
  runId: string | null;
  /** How often to look at the checks; every 15 s when absent. */
  checksPollMs?: number;
  identity: Pick<TokenIdentity, 'kind'>;
  /** A red CI run started the run: each round is for the failing checks only. */
  ciOnly: boolean;
}

export interface LoopPlan {
  steps: LoopSteps;
  /** The fix commit a push landed before the run was cancelled, if any. */
  landed: () => string | null;
  input: LoopInput;
}

export function planLoop(p: LoopPlanInput): LoopPlan {
  const { config, octokit, repo, prior, redact, log, warn } = p;
  const ci = createCiChecks({
    octokit,
    repo,
    wanted: config.waitForChecks,
    timeoutMs: config.checksTimeoutMinutes * 60_000,
    pollMs: p.checksPollMs ?? 15_000,
    maxAttempts: config.ciFixAttempts,
    ownRunId: p.runId,
    seed: prior.ciAttempts,
    redact,
    log,
    warn,
  });
  const uncancellable = loopSteps({ ...p, ci, alreadyConfirmed: prior.confirmed, cachedDismissals: prior.dismissed });
  const cancellable = p.cancellation ? cancellableSteps(uncancellable, p.cancellation) : null;
  if (config.waitForChecks.length && !config.dispatchWorkflows.length && p.identity.kind === 'actions') {
    warn(
      'wait-for-checks: a fix pushed with GITHUB_TOKEN starts no workflow, so its checks never come and ' +
        'each round after a fix waits checks-timeout-minutes; list your CI workflow in dispatch-workflows, ' +
        'or use an App token',
    );
  }
  // Who wrote an earlier run's fix, when its state does not say: any of the fixer's models.
  const fixerModels = [config.fixer, ...(config.fixer.fallbacks ?? [])].map(modelName);
  const memory = {
    ...{ fixedBefore: prior.fixed, earlier: prior.lastReview, fixerModels, decisions: prior.decisions },
    ...(prior.refusedAnswers?.length ? { refusedAnswers: prior.refusedAnswers } : {}),
  };
  return {
    steps: cancellable?.steps ?? uncancellable,
    landed: cancellable?.landed ?? (() => null),
    input: {
      meta: p.meta,
      maxRounds: config.maxRounds,
      dryRun: config.dryRun,
      ...memory,
      push: p.push,
      ciOnly: p.ciOnly,
    },
  };
}
