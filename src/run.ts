// The coordinator: wires the pipeline of docs/architecture.md. One try/catch that always
// ends in setFailed with secrets redacted; every output set on every path.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Budget } from './budget/budget.js';
import { neverCancelled, type Cancellation } from './cancellation.js';
import type { AgentAdapter, AgentKind } from './agents/types.js';
import { ConfigError } from './config/errors.js';
import { defaultOutputs, outputsOf, spendingOutputs, type OutputName } from './outputs.js';
import type { ActionIO } from './domain/io.js';
import { runLoop } from './loop.js';
import type { LoopResult } from './domain/loop.js';
import { RefusedRun, SkipRun } from './preflight/checks.js';
import { block, type ReportContext } from './report/format.js';
import { guardedIO } from './report/guarded-io.js';
import { renderCancelledReport, renderFailureReport } from './report/markdown.js';
import type { Publisher } from './report/publish.js';
import { writeReportJson } from './report/report-json.js';
import { RunSecrets } from './security/run-secrets.js';
import { failureState } from './report/state.js';
import { breachesFailOn } from './review/consensus.js';
import { decisionsFirstLine } from './report/markdown-decisions.js';
import type { Counts } from './domain/findings.js';
import { secretValuesFromEnv } from './security/secret-env.js';
import { begin } from './run-start.js';
import { readAndDecide } from './run-decide.js';
import { answerWaiting, openAgents } from './run-agents.js';
import { planLoop } from './run-loop.js';
import { installProject } from './project-setup.js';
import { endRun, nothingStarted, type Execution } from './run-end.js';

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
    // Questions only the maintainers can answer come first in the job summary.
    const waiting = decisionsFirstLine(r.decisions);
    if (waiting) await io.prependSummary(`${waiting}\n\n`).catch(() => undefined);
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

/** The pipeline of docs/architecture.md as its phases, each taking the records the ones before it return. */
async function execute(
  deps: RunDeps,
  secrets: string[],
  runSecrets: RunSecrets,
  scratchDir: string,
  state: RunState,
): Promise<Execution> {
  const { io, env, cwd, cancellation } = deps;
  const log = (m: string) => io.info(m); // io is guarded: redacted, workflow commands defused
  const warn = (m: string) => io.warning(m);
  const redact = (t: string) => runSecrets.redact(t);
  const { retryBaseMs, headPollMs, checksPollMs } = deps.timing ?? {};
  // What every phase may take from the run itself.
  const own = {
    ...{ env, io, cwd, scratchDir, secrets, log, warn, redact },
    ...(cancellation ? { cancellation } : {}),
    ...(deps.adapters ? { adapters: deps.adapters } : {}),
  };

  // 1. the inputs, then the PR and who asked, the repo config, the token's identity, earlier comments
  const begun = await begin({
    ...{ env, io, secrets, runSecrets },
    ...(retryBaseMs ? { retryBaseMs } : {}),
    // run.ts sits one level below the repository root in src/ and, bundled, in dist/.
    promptsUrl: deps.promptsUrl ?? new URL('../prompts/', import.meta.url),
  });
  const { meta, publisher, reportCtx, budget } = begun;
  Object.assign(state, { headSha: meta.headSha, publisher, reportCtx, budget });
  const ownLogin = begun.identity.login;

  // 2. the checkout, the memory of earlier runs, and what is decided before anything runs
  const auth = { serverUrl: reportCtx.serverUrl, token: begun.inputs.githubToken };
  const decided = await readAndDecide({ ...own, ...begun, auth, ownLogin });
  if (decided.skip && decided.waiting === 0) throw decided.skip;
  publisher.answeredReplies = [...decided.prior.answered];
  if (decided.noKeys) {
    state.result = nothingStarted(meta.headSha, `No reviewer has a key: ${decided.noKeys}.`);
    return endRun({ ...own, ...begun, ...decided }, state.result, null);
  }

  // 3. the sandbox, the agents, the push plan; replies in our threads answered, even before a skip
  const answerOnly = decided.skip !== null;
  const agents = await openAgents({ ...own, ...begun, ...decided, answerOnly, closers: state.closers });
  const ready = { ...own, ...begun, ...decided, ...agents, ownLogin };
  // The project installed before the first agent, where verify may run; an answer-only run installs nothing.
  const setup = await installProject({ ...ready, skip: answerOnly });
  if (decided.waiting > 0) await answerWaiting(ready);
  if (decided.skip) throw decided.skip;

  // 4. the loop
  const plan = planLoop({
    ...ready,
    setup,
    secretValues: () => runSecrets.values,
    learnSecrets: (t) => runSecrets.learn(t),
    runId: env.GITHUB_RUN_ID ?? null,
    ...(checksPollMs !== undefined ? { checksPollMs } : {}),
    ...(headPollMs ? { headPollMs } : {}),
  });
  state.landed = plan.landed;
  const result = await runLoop(plan.steps, plan.input);
  // The loop's outcome stands even if the after-finish hook or the summary fails below.
  state.result = result;

  // 5. the after-finish hook, the hand-off, the job summary
  return endRun(ready, result, plan.steps);
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
