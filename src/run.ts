// The coordinator: wires the pipeline of docs/architecture.md. One try/catch that always
// ends in setFailed with secrets redacted; every output set on every path.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentsForRun, type RunAgentsSetup } from './agents/for-run.js';
import { createBudget, type Budget } from './budget/budget.js';
import { cancellableSteps } from './cancellable-steps.js';
import { neverCancelled, type Cancellation } from './cancellation.js';
import { createCiChecks } from './ci/tracker.js';
import { priceTable } from './budget/prices.js';
import type { AgentAdapter, AgentKind } from './agents/types.js';
import { deprecatedInputWarnings } from './config/deprecated-inputs.js';
import { ConfigError } from './config/errors.js';
import { defaultOutputs, outputsOf, spendingOutputs, type OutputName } from './outputs.js';
import type { ResolvedConfig } from './config/repo-config.js';
import { openCheckout, prepareForAgents } from './git/prepare.js';
import { serverUrlFromEnv } from './github/client.js';
import { writeAccess } from './github/permissions.js';
import { loadPrContext } from './github/pr-context.js';
import { getReviewThreads } from './github/threads.js';
import type { ActionIO } from './domain/io.js';
import { finishLoop, runLoop } from './loop.js';
import type { LoopResult } from './domain/loop.js';
import { loopSteps } from './loop-steps.js';
import { readConfig, RefusedRun, SkipRun } from './preflight/checks.js';
import { readMemory } from './preflight/memory.js';
import { keylessModels, keylessNote, noReviewerHasAKey } from './preflight/keys.js';
import { planPush } from './preflight/push-plan.js';
import { skipIfHandled } from './preflight/skip.js';
import { startRun } from './preflight/start.js';
import { block, reportContext, type ReportContext } from './report/format.js';
import { guardedIO } from './report/guarded-io.js';
import { renderCancelledReport, renderFailureReport, renderFinalSummary } from './report/markdown.js';
import { handOff } from './report/hand-off.js';
import { nothingReviewed } from './report/nothing-reviewed.js';
import { supersedeReports } from './report/outdated-reports.js';
import { createPublisher, type Publisher } from './report/publish.js';
import { writeReportJson } from './report/report-json.js';
import { RunSecrets } from './security/run-secrets.js';
import { failureState } from './report/state.js';
import { breachesFailOn } from './review/consensus.js';
import { answerReplies } from './review/thread-answers.js';
import { repliesToAnswer } from './review/thread-replies.js';
import type { Counts } from './domain/findings.js';
import { openSandbox } from './sandbox/announce.js';
import { prCodeWithheld } from './sandbox/withheld.js';
import { secretValuesFromEnv, tokenForms } from './security/secret-env.js';

export interface RunDeps {
  env: NodeJS.ProcessEnv;
  io: ActionIO;
  cwd: string;
  /** Real CLI adapters (claude, codex, …); the command adapter is built from the config. */
  adapters?: Partial<Record<AgentKind, AgentAdapter>>;
  promptsUrl?: URL;
  /** Cancels the run (main.ts: the runner's SIGINT or SIGTERM); never, when absent. */
  cancellation?: Cancellation;
  /** Faster waits for the tests (main.ts reads them); GitHub's own pacing when absent. */
  timing?: { retryBaseMs?: number; headPollMs?: number; checksPollMs?: number };
}

export async function run(deps: RunDeps): Promise<void> {
  const { env } = deps;
  const secrets: string[] = [];
  // Redacted from everything posted or logged: a superset of `secrets`, which agentEnv also uses
  // to drop variables, so credentials agents need (their own API keys) may be listed here only;
  // and every value the secret rules recognise in what the run reads or redacts (run-secrets.ts).
  const runSecrets = new RunSecrets(secretValuesFromEnv(env));
  const io = guardedIO(deps.io, runSecrets);
  const redact = (t: string) => runSecrets.redact(t);
  const outputs = defaultOutputs();
  let reportPath = path.join(env.RUNNER_TEMP || tmpdir(), `pr-review-loop-report-${process.pid}.json`);
  let failure: string | null = null;
  const state: RunState = {
    headSha: '',
    publisher: null,
    reportCtx: null,
    result: null,
    budget: null,
    closers: [],
    landed: () => null,
  };
  const cancellation = deps.cancellation ?? neverCancelled();
  try {
    const scratchDir = await mkdtemp(path.join(env.RUNNER_TEMP || tmpdir(), 'pr-review-loop-'));
    reportPath = path.join(scratchDir, 'report.json');
    const r = await execute({ ...deps, io, cancellation }, secrets, runSecrets, scratchDir, state);
    state.result = r;
    Object.assign(outputs, outputsOf(r));
    if (r.status === 'failed') failure = r.message;
    else if (r.nothingReviewed) {
      io.warning(r.nothingReviewed.log);
      await io.prependSummary(`${r.nothingReviewed.line}\n\n`).catch(() => undefined);
      // A gate judges a review: with none, it cannot pass.
      if (r.failOn !== 'none')
        failure = `fail-on ${r.failOn}: nothing was reviewed, so the gate cannot pass. ${r.message}`;
    } else if (r.last && breachesFailOn(r.last.counts, r.failOn)) failure = failOnMessage(r.failOn, r.last.counts);
  } catch (e) {
    if (cancellation.signal.aborted) {
      if (state.result) Object.assign(outputs, outputsOf(state.result));
      outputs.status = 'cancelled';
      await reportCancelled(io, state, redact(describeError(cancellation.signal.reason ?? e)));
    } else if (e instanceof SkipRun) {
      outputs.status = 'skipped';
      const note = redact(e.message);
      (e instanceof RefusedRun ? io.warning : io.info)(note);
      await io.appendSummary(`### pr-review-loop: skipped\n\n${block(note)}\n`).catch(() => undefined);
      if (e.recorded) {
        const c = e.recorded.counts;
        Object.assign(outputs, { p0: String(c.p0), p1: String(c.p1), p2: String(c.p2), p3: String(c.p3) });
        // A rerun of a failed gate must not turn it green by skipping.
        if (breachesFailOn(c, e.recorded.failOn)) failure = failOnMessage(e.recorded.failOn, c);
      }
    } else {
      // The loop's outcome stands in the outputs even when a later step failed; the status says failed.
      if (state.result) Object.assign(outputs, outputsOf(state.result));
      outputs.status = 'failed';
      failure = redact(describeError(e));
      const where = { headSha: state.headSha, runId: env.GITHUB_RUN_ID ?? null };
      await reportFailure(io, state.publisher, state.reportCtx, failure, where);
    }
  } finally {
    for (const close of state.closers.reverse()) {
      await close().catch((e) => io.warning(`cleanup failed: ${redact(String(e))}`));
    }
    if (!outputs['head-sha']) outputs['head-sha'] = state.headSha;
    const spending = state.budget?.spending() ?? null;
    if (spending) Object.assign(outputs, spendingOutputs(spending));
    outputs['report-json'] = reportPath;
    await writeReportJson(reportPath, { outputs, result: state.result, spending, failure }, runSecrets).catch((e) =>
      io.warning(`could not write the report JSON: ${String(e)}`),
    );
    for (const [name, value] of Object.entries(outputs) as [OutputName, string][]) io.setOutput(name, value);
  }
  if (failure) io.setFailed(failure);
}

type Execution = LoopResult & {
  failOn: 'none' | 'P0' | 'P1' | 'P2';
  /** The run reviewed nothing: no reviewer had a key, or none could authenticate (report/nothing-reviewed.ts). */
  nothingReviewed?: { line: string; log: string };
};

/** What a run has learned so far: execute() fills it in, run() reads it on every path, failures included. */
interface RunState {
  /** The PR head the run works on, once known. */
  headSha: string;
  publisher: Publisher | null;
  reportCtx: ReportContext | null;
  /** The loop's outcome as soon as the loop ends (a later step may still fail). */
  result: LoopResult | null;
  /** What the agents spent, once the budget exists. */
  budget: Budget | null;
  /** What the run opened and must close (closed newest first). */
  closers: Array<() => Promise<void>>;
  /** The fix commit this run pushed before it was cancelled, if any. */
  landed: () => string | null;
}

async function execute(
  deps: RunDeps,
  secrets: string[],
  runSecrets: RunSecrets,
  scratchDir: string,
  state: RunState,
): Promise<Execution> {
  const { io, env, cwd } = deps;
  const log = (m: string) => io.info(m); // io is guarded: redacted, workflow commands defused
  const redact = (t: string) => runSecrets.redact(t);
  // 1. config, before anything else; the token is a secret from here on
  const { raw, config: inputs } = readConfig(env);
  secrets.push(inputs.githubToken);
  runSecrets.add(...tokenForms(inputs.githubToken));
  io.setSecret(inputs.githubToken);
  for (const warning of deprecatedInputWarnings(raw, inputs)) io.warning(warning);
  // 2. prompts, the PR and who asked, the repo config, the token's identity, earlier comments
  const { retryBaseMs, headPollMs, checksPollMs } = deps.timing ?? {};
  const started = await startRun({
    env,
    raw,
    inputs,
    log,
    ...(retryBaseMs ? { retryBaseMs } : {}),
    // run.ts sits one level below the repository root in src/ and, bundled, in dist/.
    promptsUrl: deps.promptsUrl ?? new URL('../prompts/', import.meta.url),
  });
  const { config, octokit, repo, meta, identity } = started;
  state.headSha = meta.headSha;
  const reportCtx = reportContext(serverUrlFromEnv(env), env.GITHUB_RUN_ID, repo, meta.number, config);
  const { dryRun } = config;
  const publisher = createPublisher({ octokit, repo, prNumber: meta.number, dryRun, secrets: runSecrets, io });
  const { maxTokens, maxCostUsd } = config;
  const limits = { ...(maxTokens ? { maxTokens } : {}), ...(maxCostUsd ? { maxCostUsd } : {}) };
  const budget = createBudget(limits, priceTable(config.modelPrices));
  Object.assign(state, { publisher, reportCtx, budget });

  // 3. the checkout: a clean git work tree at the PR head, without persisted credentials
  const fork = meta.headRepoFullName.toLowerCase() !== meta.baseRepoFullName.toLowerCase();
  const auth = { serverUrl: reportCtx.serverUrl, token: inputs.githubToken };
  const git = await openCheckout(cwd, auth, { ...meta, fork }, log);

  // 4. memory of earlier runs: only our own marker comments, written by this workflow job
  const { comments } = started;
  const ownLogin = identity.login;
  const { prior, writer } = await readMemory({ env, octokit, repo, comments, ownLogin, headSha: meta.headSha, log });
  // A head already reviewed is skipped, but replies in our threads are still answered first.
  const skip =
    started.target.kind === 'pull_request'
      ? await skipIfHandled(git, prior, meta.headSha, config.failOn).then(
          () => null,
          (e: unknown) => (e instanceof SkipRun ? e : Promise.reject(e)),
        )
      : null;
  const threadsRead = config.threadAnswers ? await getReviewThreads(octokit, repo, meta.number) : null;
  const waiting = threadsRead ? repliesToAnswer(threadsRead.threads, ownLogin, new Set(prior.answered)).length : 0;
  if (skip && waiting === 0) throw skip;
  publisher.answeredReplies = [...prior.answered];
  const warn = (m: string) => io.warning(m);
  // A red CI run started it: each round is for the failing checks only.
  const ciOnly = started.target.kind === 'workflow_run';
  // Before any agent starts, not even a sandbox: a model without a key is not started, and with
  // no reviewer left nothing can be reviewed (a fork PR's pull_request run gets no secrets).
  const forkPullRequest = fork && started.target.eventName === 'pull_request';
  const keyless = keylessModels(config, env);
  const noKeys = ciOnly ? null : noReviewerHasAKey(config, keyless);
  if (noKeys) {
    const message = `No reviewer has a key: ${noKeys}.`;
    const none: LoopResult = {
      status: 'skipped',
      message,
      rounds: [],
      headSha: meta.headSha,
      remaining: [],
      stuck: [],
      last: null,
    };
    state.result = none;
    await publisher.summaryOnly(renderFinalSummary({ ...none, spent: budget.spending() }, reportCtx));
    return { ...none, failOn: config.failOn, nothingReviewed: nothingReviewed({ why: message, forkPullRequest }, env) };
  }
  const keylessLine = keylessNote(keyless);
  if (keylessLine) warn(keylessLine);
  const enabled = config.hideOutdatedReports;
  publisher.onPosted = supersedeReports({ octokit, enabled, earlier: prior.reports, log, warn });

  // 5. the sandbox user every agent, verify command and hook runs as; the agents; push permission
  const sandbox = await openSandbox(config.isolation, cwd, io, {
    callLimits: config.callLimits,
    homeFolders: config.homeFolders,
  });
  state.closers.push(() => sandbox.close());
  // Cancelled: every agent, verify command and hook still running is stopped (closing the sandbox
  // kills what its user runs); the steps then start nothing new.
  deps.cancellation?.signal.addEventListener(
    'abort',
    () => {
      log('cancelled: stopping the agents; nothing new starts and no push begins');
      void sandbox.close().catch(() => undefined);
    },
    { once: true },
  );
  const { registry, commandEnv } = await agentsForRun({
    ...agentSettings(config),
    env,
    secrets,
    sandbox,
    log,
    ...(deps.adapters ? { adapters: deps.adapters } : {}),
  });
  const { mode, allowForkFixes } = config;
  // isolation: auto that could not isolate runs no PR code: the review goes on, nothing is fixed.
  const withheld = prCodeWithheld(config.isolation, sandbox);
  const push = await planPush({
    ...{ octokit, repo, meta, git, mode, allowForkFixes, fork, identity, env },
    fixerWithheld: withheld,
  });
  // A token the event says is read-only writes nothing at all, not even a refused comment.
  if (push.readOnlyToken) publisher.refuseWrites(push.readOnlyToken);
  if (!push.canPush) log(`review-only: ${push.reason}`);
  // Agent config from the base branch, the commit identity, the local git config pinned.
  const checkout = await prepareForAgents(git, meta, log);
  if (waiting > 0) {
    const ctx = await loadPrContext(octokit, repo, meta, config, { git, log });
    const env = { registry, prompts: started.prompts, workDir: cwd, scratchDir, budget, log };
    const done = await answerReplies({
      octokit,
      ctx,
      ownLogin,
      spec: config.reviewers[0]!,
      env: { ...env, timeoutMs: config.agentTimeoutMinutes * 60_000 },
      answered: prior.answered,
      writeAccess: (login) => writeAccess(octokit, repo, login),
      fixes: push.canPush && config.mode !== 'review',
      redact,
      log,
      post: !dryRun && !publisher.writesRefused,
    });
    publisher.answeredReplies.push(...done);
  }
  if (skip) throw skip;

  // 6. the loop, then the after-finish hook and the job summary
  const uncancellable = loopSteps({
    config,
    octokit,
    repo,
    meta,
    fork,
    cwd,
    scratchDir,
    git,
    checkout,
    push,
    prompts: started.prompts,
    registry,
    commandEnv,
    sandbox,
    prCodeWithheld: withheld,
    publisher,
    reportCtx,
    writer,
    redact,
    learnSecrets: (t) => runSecrets.learn(t),
    log,
    budget,
    ownLogin,
    alreadyConfirmed: prior.confirmed,
    cachedDismissals: prior.dismissed,
    ci: createCiChecks({
      octokit,
      repo,
      wanted: config.waitForChecks,
      timeoutMs: config.checksTimeoutMinutes * 60_000,
      pollMs: checksPollMs ?? 15_000,
      maxAttempts: config.ciFixAttempts,
      ownRunId: env.GITHUB_RUN_ID ?? null,
      seed: prior.ciAttempts,
      redact,
      log,
      warn,
    }),
    warn,
    ...(headPollMs ? { headPollMs } : {}),
    ...(deps.cancellation ? { cancellation: deps.cancellation } : {}),
  });
  const cancellable = deps.cancellation ? cancellableSteps(uncancellable, deps.cancellation) : null;
  const steps = cancellable?.steps ?? uncancellable;
  if (cancellable) state.landed = cancellable.landed;
  const memory = { fixedBefore: prior.fixed, earlier: prior.lastReview };
  if (config.waitForChecks.length && !config.dispatchWorkflows.length && identity.kind === 'actions') {
    warn(
      'wait-for-checks: a fix pushed with GITHUB_TOKEN starts no workflow, so its checks never come and ' +
        'each round after a fix waits checks-timeout-minutes; list your CI workflow in dispatch-workflows, ' +
        'or use an App token',
    );
  }
  const result = await runLoop(steps, { meta, maxRounds: config.maxRounds, dryRun, ...memory, push, ciOnly });
  // The loop's outcome stands even if the after-finish hook or the summary fails below.
  state.result = result;
  await finishLoop(steps, meta.number, result);
  await handOff(
    {
      octokit,
      repo,
      prNumber: meta.number,
      readyWhenConverged: config.readyWhenConverged,
      log,
      warn,
      // A checks-only run hands nothing over: no agent reviewed the code.
      writes: !dryRun && !publisher.writesRefused && !ciOnly,
      ...(config.convergedLabel ? { convergedLabel: config.convergedLabel } : {}),
    },
    result,
  );
  const { status, rounds, remaining, stuck, message } = result;
  const spent = budget.spending();
  await publisher.summaryOnly(renderFinalSummary({ status, rounds, remaining, stuck, message, spent }, reportCtx));
  // A failed loop already explained itself in its last report comment (status "failed"). The loop
  // ends skipped only when no reviewer could authenticate (termination.ts).
  const unreviewed =
    result.status === 'skipped' ? nothingReviewed({ why: result.message, forkPullRequest }, env) : null;
  return { ...result, failOn: config.failOn, ...(unreviewed ? { nothingReviewed: unreviewed } : {}) };
}

/** What agentsForRun needs from the config: every agent kind the roles name, and their settings. */
function agentSettings(config: ResolvedConfig): Omit<RunAgentsSetup, 'env' | 'secrets' | 'sandbox' | 'log'> {
  const gate = config.gateReviewer ? [config.gateReviewer] : [];
  const roles = [...config.reviewers, config.analyzer, config.fixer, ...gate];
  return {
    kinds: roles.flatMap((spec) => [spec, ...(spec.fallbacks ?? [])]).map((spec) => spec.agent),
    ...(config.agentCommand ? { agentCommand: config.agentCommand } : {}),
    agentConfig: config.agentConfig,
    agentVersions: config.agentVersions,
    cacheClis: config.cacheClis,
    agentEnvNames: config.agentEnv,
    verifyEnvNames: config.verifyEnv,
  };
}

async function reportFailure(
  io: ActionIO,
  publisher: Publisher | null,
  ctx: ReportContext | null,
  message: string,
  where: { headSha: string; runId: string | null },
): Promise<void> {
  // Before the first comment, log and job summary only;
  // after at least one comment, one final marker comment explains the failure.
  // (setFailed prints the message as an error annotation afterwards.)
  if (publisher && ctx && publisher.commentsPosted > 0) {
    try {
      await publisher.report(renderFailureReport(message, ctx), failureState(where.headSha, where.runId));
      return;
    } catch (e) {
      io.warning(`could not post the failure comment: ${String(e)}`);
    }
  }
  await io.appendSummary(`### pr-review-loop failed\n\n${block(message)}\n`).catch(() => undefined);
}

/**
 * The cancelled run's last word: in a marker comment when the run has commented (a later run reads
 * it like any report), else in the job summary. A fix commit that landed first is named: a later run
 * finds it on the branch and, by its trailer, knows it for the action's own.
 */
async function reportCancelled(io: ActionIO, state: RunState, why: string): Promise<void> {
  const landed = state.landed();
  const message = `${why}.${landed ? ` The fix commit ${landed.slice(0, 7)} was pushed before the cancel.` : ''}`;
  io.warning(message);
  const { publisher, reportCtx: ctx } = state;
  if (publisher && ctx && publisher.commentsPosted > 0) {
    try {
      const runId = process.env.GITHUB_RUN_ID ?? null;
      const cancelled = { ...failureState(landed ?? state.headSha, runId), status: 'cancelled' };
      await publisher.report(renderCancelledReport(message, ctx), cancelled);
      return;
    } catch (e) {
      io.warning(`could not post the cancelled report: ${String(e)}`);
    }
  }
  await io.appendSummary(`### pr-review-loop: cancelled\n\n${block(message)}\n`).catch(() => undefined);
}

function failOnMessage(failOn: string, c: Counts): string {
  return `fail-on ${failOn}: findings at or above ${failOn} remain (P0 ${c.p0}, P1 ${c.p1}, P2 ${c.p2}).`;
}

function describeError(e: unknown): string {
  if (e instanceof ConfigError) return e.message;
  if (e instanceof Error) return e.message || e.name;
  return `non-Error thrown: ${String(e)}`;
}
