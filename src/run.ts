// The coordinator: wires the pipeline of docs/architecture.md. One try/catch that always
// ends in setFailed with secrets redacted; every output set on every path.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentsForRun } from './agents/for-run.js';
import { openSandbox } from './sandbox/announce.js';
import type { AgentAdapter, AgentKind } from './agents/types.js';
import { defaultOutputs, outputsOf, type OutputName } from './config/outputs.js';
import { ConfigError } from './config/errors.js';
import { runFixRound, type FixEnv } from './fix/fix-round.js';
import { openCheckout, prepareForAgents } from './git/prepare.js';
import { planPush } from './preflight/push-plan.js';
import { roundReports } from './report/round-reports.js';
import { apiUrlFromEnv, createClient, serverUrlFromEnv } from './github/client.js';
import { dispatchWorkflow, listComments } from './github/comments.js';
import { getPrMeta } from './github/pull-request.js';
import { getTokenIdentity } from './github/identity.js';
import { loadPrContext, waitForHead } from './github/pr-context.js';
import type { ActionIO } from './io.js';
import { finishLoop, runLoop, type LoopResult } from './loop.js';
import { createHookRunner } from './commands/hooks.js';
import { makePathMatcher } from './github/path-filter.js';
import { readPriorRuns } from './preflight/memory.js';
import { createRunCheck, workflowIdentity } from './github/workflow-runs.js';
import {
  checkCommandCoversHead, checkOpen, checkTrigger, loadResolvedConfig, readConfig, readTarget, RefusedRun, SkipRun,
} from './preflight/checks.js';
import { loadPrompts } from './roles/prompts.js';
import { createPublisher, type Publisher } from './report/publish.js';
import { redactSecrets } from './report/sanitize.js';
import { renderFailureReport, renderFinalSummary } from './report/markdown.js';
import { block, type ReportContext } from './report/format.js';
import { guardedIO } from './report/guarded-io.js';
import { failureState, type StateWriter } from './report/state.js';
import { secretValuesFromEnv, tokenForms } from './security/secret-env.js';
import { runReviewRound } from './review/round.js';
import type { Counts } from './review/types.js';
import { skipIfHandled } from './preflight/skip.js';
import { writeReportJson } from './report/report-json.js';
import { breachesFailOn } from './review/consensus.js';

export interface RunDeps {
  env: NodeJS.ProcessEnv;
  io: ActionIO;
  cwd: string;
  /** Real CLI adapters (claude, codex, …); the command adapter is built from the config. */
  adapters?: Partial<Record<AgentKind, AgentAdapter>>;
  promptsUrl?: URL;
  /** Faster waits for the tests (main.ts reads them); GitHub's own pacing when absent. */
  timing?: { retryBaseMs?: number; headPollMs?: number };
}

export async function run(deps: RunDeps): Promise<void> {
  const { env } = deps;
  const secrets: string[] = [];
  // Redacted from everything posted or logged: a superset of `secrets`, which agentEnv also uses
  // to drop variables, so credentials agents need (their own API keys) may be listed here only.
  const redactValues = secretValuesFromEnv(env);
  const io = guardedIO(deps.io, redactValues);
  const redact = (t: string) => redactSecrets(t, redactValues);
  const outputs = defaultOutputs();
  let reportPath = path.join(env.RUNNER_TEMP || tmpdir(), `pr-review-loop-report-${process.pid}.json`);
  let failure: string | null = null;
  const state: RunState = { headSha: '', publisher: null, reportCtx: null, result: null, closers: [] };
  try {
    const scratchDir = await mkdtemp(path.join(env.RUNNER_TEMP || tmpdir(), 'pr-review-loop-'));
    reportPath = path.join(scratchDir, 'report.json');
    const r = await execute({ ...deps, io }, secrets, redactValues, scratchDir, state);
    state.result = r;
    Object.assign(outputs, outputsOf(r));
    if (r.status === 'failed') failure = r.message;
    else if (r.last && breachesFailOn(r.last.counts, r.failOn)) failure = failOnMessage(r.failOn, r.last.counts);
  } catch (e) {
    if (e instanceof SkipRun) {
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
    outputs['report-json'] = reportPath;
    await writeReportJson(reportPath, { outputs, result: state.result, failure }, redactValues)
      .catch((e) => io.warning(`could not write the report JSON: ${String(e)}`));
    for (const [name, value] of Object.entries(outputs) as [OutputName, string][]) io.setOutput(name, value);
  }
  if (failure) io.setFailed(failure);
}

type Execution = LoopResult & { failOn: 'none' | 'P0' | 'P1' | 'P2' };

/** What a run has learned so far: execute() fills it in, run() reads it on every path, failures included. */
interface RunState {
  /** The PR head the run works on, once known. */
  headSha: string;
  publisher: Publisher | null;
  reportCtx: ReportContext | null;
  /** The loop's outcome as soon as the loop ends (a later step may still fail). */
  result: LoopResult | null;
  /** What the run opened and must close (closed newest first). */
  closers: Array<() => Promise<void>>;
}

async function execute(
  deps: RunDeps,
  secrets: string[],
  redactValues: string[],
  scratchDir: string,
  state: RunState,
): Promise<Execution> {
  const { io, env, cwd } = deps;
  const log = (m: string) => io.info(m); // io is guarded: redacted, workflow commands defused
  // 1. config, before anything else
  const { raw, config: inputs } = readConfig(env);
  secrets.push(inputs.githubToken);
  redactValues.push(...tokenForms(inputs.githubToken));
  io.setSecret(inputs.githubToken);
  // 2. prompts readable
  // run.ts sits one level below the repository root in src/ and, bundled, in dist/.
  const prompts = await loadPrompts(deps.promptsUrl ?? new URL('../prompts/', import.meta.url));
  // 3. which PR, and who asked
  const { target, repo } = readTarget(env, inputs.pr);
  const { retryBaseMs, headPollMs } = deps.timing ?? {};
  const octokit = createClient({
    token: inputs.githubToken,
    baseUrl: apiUrlFromEnv(env),
    log,
    ...(retryBaseMs ? { retryAfterBaseValue: retryBaseMs } : {}),
  });
  await checkTrigger(octokit, repo, target, inputs.allowedBots);
  const meta = await getPrMeta(octokit, repo, target.number);
  checkOpen(meta);
  await checkCommandCoversHead(octokit, repo, target, meta, log);
  state.headSha = meta.headSha;
  // Independent reads at once (issue 8, part 4): the repo config, who the token is (one GraphQL
  // `viewer` request: the login its comments carry, App tokens included), and the comments
  // that hold the memory of earlier runs.
  const [config, identity, comments] = await Promise.all([
    loadResolvedConfig(octokit, repo, raw, inputs.configFile, meta.baseSha),
    getTokenIdentity(octokit),
    listComments(octokit, repo, meta.number),
  ]);
  const serverUrl = serverUrlFromEnv(env);
  const runUrl = env.GITHUB_RUN_ID ? `${serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${env.GITHUB_RUN_ID}` : null;
  const reportCtx: ReportContext = {
    serverUrl, owner: repo.owner, repo: repo.repo, prNumber: meta.number, runUrl,
    maxRounds: config.maxRounds, mode: config.mode, dryRun: config.dryRun,
  };
  const publisher = createPublisher({
    octokit, repo, prNumber: meta.number, dryRun: config.dryRun, secrets: redactValues, io,
  });
  state.publisher = publisher;
  state.reportCtx = reportCtx;

  // 4. the checkout: a clean git work tree at the PR head, without persisted credentials
  const fork = meta.headRepoFullName.toLowerCase() !== meta.baseRepoFullName.toLowerCase();
  const git = await openCheckout(cwd, { serverUrl, token: inputs.githubToken }, { ...meta, fork }, log);

  // 5. memory of earlier runs: only our own marker comments count
  const ownLogin = identity.login;
  // A state counts only if this workflow job wrote it in a run of this workflow (issue 7).
  const self = workflowIdentity(env);
  const trust = { job: self.job, workflow: self.workflow, checkRun: createRunCheck(octokit, repo, self.runId), log };
  const writer: StateWriter = {
    runId: env.GITHUB_RUN_ID ?? null,
    ...(self.job ? { job: self.job } : {}),
    ...(self.workflow ? { workflow: self.workflow } : {}),
  };
  const prior = await readPriorRuns(comments, ownLogin, meta.headSha, trust);
  if (target.kind === 'pull_request') await skipIfHandled(git, prior, meta.headSha, config.failOn);

  // 6. the sandbox user every agent, verify command and hook runs as; then agents and push permission
  const sandbox = await openSandbox(config.isolation, cwd, io);
  state.closers.push(() => sandbox.close());
  const gate = config.gateReviewer ? [config.gateReviewer] : [];
  const { registry, commandEnv } = await agentsForRun({
    kinds: [...config.reviewers, config.analyzer, config.fixer, ...gate].map((spec) => spec.agent),
    ...(config.agentCommand ? { agentCommand: config.agentCommand } : {}),
    agentConfig: config.agentConfig,
    agentVersions: config.agentVersions,
    agentEnvNames: config.agentEnv,
    verifyEnvNames: config.verifyEnv,
    env,
    secrets,
    sandbox,
    log,
    ...(deps.adapters ? { adapters: deps.adapters } : {}),
  });
  const push = await planPush({
    octokit, repo, meta, git, mode: config.mode, allowForkFixes: config.allowForkFixes, fork, identity, env,
  });
  // A token the event says is read-only writes nothing at all, not even a refused comment.
  if (push.readOnlyToken) publisher.refuseWrites(push.readOnlyToken);
  if (!push.canPush) log(`review-only: ${push.reason}`);
  // SPEC §8: agent config from the base branch, the commit identity, the local git config pinned.
  const checkout = await prepareForAgents(git, meta, log);

  const timeoutMs = config.agentTimeoutMinutes * 60_000;
  // Hooks are trusted commands, but they run in a checkout of the PR's code; on a PR from
  // another repository that code is untrusted, so hooks run only when fork fixes are allowed.
  const hooksAllowed = !fork || config.allowForkFixes;
  if (!hooksAllowed && Object.values(config.hooks).some((h) => h.length)) {
    log('hooks are not run on a PR from another repository (set allow-fork-fixes to run them)');
  }
  const noHooks = { 'before-review': [], 'after-review': [], 'after-fix': [], 'after-finish': [] };
  const hooks = createHookRunner({
    hooks: hooksAllowed ? config.hooks : noHooks,
    cwd, scratchDir, env: commandEnv, timeoutMs, redact: (t) => redactSecrets(t, redactValues), log, sandbox,
  });
  const instructions = config.instructions ? { instructions: config.instructions } : {};
  const roundEnv = { registry, prompts, workDir: cwd, scratchDir, timeoutMs, ...instructions };
  const keep = config.paths.include.length || config.paths.exclude.length ? makePathMatcher(config.paths) : undefined;
  const session = { id: null as string | null, history: [] as string[] };
  const alreadyConfirmed = new Set<string>();
  const fixedBefore = prior.fixed;

  const fixEnv: FixEnv = {
    ...roundEnv,
    git,
    fixer: config.fixer,
    ...(config.gateReviewer ? { gate: config.gateReviewer } : {}),
    gateMaxLoops: config.gateMaxLoops,
    verify: config.verify,
    dryRun: config.dryRun,
    verifyEnv: commandEnv,
    sandbox,
    redact: (t) => redactSecrets(t, redactValues),
    log,
    session,
    commitExclude: checkout.commitExclude,
    confirm: config.confirm,
    alreadyConfirmed,
    beforePush: checkout.restoreGitConfig,
    beforeGate: checkout.restoreAgentConfig,
    pushRemote: push.remote,
  };

  const result = await runLoop(
    {
      loadContext: async (m) => {
        // A fixer may have rewritten agent config files; later rounds' agents must not load them.
        await checkout.beforeRound();
        const { maxDiffLines, maxDiffChars } = config;
        const budget = { maxDiffLines, maxDiffChars, ...(keep ? { keep } : {}) };
        return loadPrContext(octokit, repo, m, budget, { git, log });
      },
      review: (plan) => runReviewRound(roundEnv, { ...plan, reviewers: config.reviewers, analyzer: config.analyzer }),
      fix: (ctx, round, findings) => runFixRound(fixEnv, ctx, round, findings),
      ...roundReports({ publisher, reportCtx, writer }),
      hook: (point, info) => hooks.run(point, info),
      waitForHead: (sha) => waitForHead(octokit, repo, meta.number, sha, headPollMs ? { delayMs: headPollMs } : {}),
      afterPush: async (headRef) => {
        for (const wf of config.dispatchWorkflows) {
          try {
            await dispatchWorkflow(octokit, repo, wf, headRef);
          } catch (e) {
            const why = describeError(e);
            const what = `could not start workflow ${wf} on ${headRef} (dispatch-workflows)`;
            throw new Error(`${what}: ${why}; the fix was pushed`);
          }
          log(`dispatched workflow ${wf} on ${headRef}`);
        }
      },
      log,
    },
    { meta, maxRounds: config.maxRounds, dryRun: config.dryRun, fixedBefore, push },
  );
  // The loop's outcome stands even if the after-finish hook or the summary fails below.
  state.result = result;
  await finishLoop({ hook: (point, info) => hooks.run(point, info) }, meta.number, result);
  const { status, rounds, remaining, stuck, message } = result;
  await publisher.summaryOnly(renderFinalSummary({ status, rounds, remaining, stuck, message }, reportCtx));
  // A failed loop already explained itself in its last report comment (status "failed").
  return { ...result, failOn: config.failOn };
}

async function reportFailure(
  io: ActionIO,
  publisher: Publisher | null,
  ctx: ReportContext | null,
  message: string,
  where: { headSha: string; runId: string | null },
): Promise<void> {
  // SPEC §7 failure policy: before the first comment, log and job summary only;
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

function failOnMessage(failOn: string, c: Counts): string {
  return `fail-on ${failOn}: findings at or above ${failOn} remain (P0 ${c.p0}, P1 ${c.p1}, P2 ${c.p2}).`;
}

function describeError(e: unknown): string {
  if (e instanceof ConfigError) return e.message;
  if (e instanceof Error) return e.message || e.name;
  return `non-Error thrown: ${String(e)}`;
}
