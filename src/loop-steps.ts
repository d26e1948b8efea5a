// The steps of loop.ts wired to the real world: the PR's context from GitHub and the checkout,
// the review round and the fix round with their agents, the reports, the hooks, the wait for a
// pushed head and the workflows to dispatch after it. Everything here is fixed for the run,
// decided before the first round.
import type { AgentRegistry } from './agents/registry.js';
import type { Budget } from './budget/budget.js';
import type { CiChecks } from './ci/tracker.js';
import { createHookRunner, hooksForPr } from './commands/hooks.js';
import type { ResolvedConfig } from './config/repo-config.js';
import { runFixRound } from './fix/fix-round.js';
import { type FixEnv } from './fix/env.js';
import type { PreparedCheckout } from './git/prepare.js';
import { putBackAfter } from './git/put-back.js';
import { linesAtCommit } from './git/head-lines.js';
import type { Git } from './git/runner.js';
import { directoryRulesLookup } from './review/dir-rules.js';
import { directoryRulesPrompt } from './review/dir-rules-prompt.js';
import { dismissedFindingsPrompt } from './review/dismissed-prompt.js';
import type { Octokit } from './github/client.js';
import { dispatchWorkflows } from './github/comments.js';
import { makePathMatcher } from './github/path-filter.js';
import { loadPrContext, waitForHead } from './github/pr-context.js';
import type { ThreadsAndReviews } from './github/threads.js';
import type { PrMeta, RepoRef } from './domain/pull-request.js';
import type { LoopSteps } from './loop.js';
import type { PushPlan } from './preflight/push-plan.js';
import type { ReportContext } from './report/format.js';
import type { Publisher } from './report/publish.js';
import { createInlineReview } from './report/inline-review.js';
import { writeAccess } from './github/permissions.js';
import { dismissalTracker } from './review/dismissals.js';
import type { MayAnswer } from './github/answerers.js';
import { decidedFindingsPrompt } from './review/decided-prompt.js';
import { redactRecord } from './review/redact-finding.js';
import type { Dismissal } from './domain/findings.js';
import type { Cancellation } from './cancellation.js';
import { roundReports } from './report/round-reports.js';
import type { StateWriter } from './report/state.js';
import { runReviewRound } from './review/round.js';
import type { ReviewerSessions } from './review/reviewer-call.js';
import type { RoleEnv } from './roles/call.js';
import type { Prompts } from './roles/prompts.js';
import type { Sandbox } from './sandbox/sandbox.js';
import { SETUP_FINDING_ID, withSetupVerdict } from './ci/setup-check.js';
import type { ProjectSetup } from './project-setup.js';

export interface RunWiring {
  config: ResolvedConfig;
  octokit: Octokit;
  repo: RepoRef;
  meta: PrMeta;
  /** The PR comes from another repository. */
  fork: boolean;
  cwd: string;
  scratchDir: string;
  git: Git;
  checkout: PreparedCheckout;
  push: PushPlan;
  prompts: Prompts;
  registry: AgentRegistry;
  /** The token-free environment of verify commands and hooks. */
  commandEnv: NodeJS.ProcessEnv;
  sandbox: Sandbox;
  /** Why the fixer, verify commands and hooks may not run (sandbox/withheld.ts), or null. */
  prCodeWithheld: string | null;
  publisher: Publisher;
  reportCtx: ReportContext;
  writer: StateWriter;
  redact: (text: string) => string;
  /** Remembers the secret values the rules recognise in a text, or in every text of parsed data. */
  learnSecrets: (data: unknown) => void;
  log: (line: string) => void;
  budget: Budget;
  /** The `wait-for-checks` checks of each head, and the fix attempts per check. */
  ci: CiChecks;
  /** Findings an earlier run of this job confirmed, whose regression test is in the branch. */
  alreadyConfirmed: string[];
  /** The token's login (REST form): the author of the action's comments and review threads. */
  ownLogin: string;
  /** The dismissals the last review of an earlier run knew of (preflight/memory.ts). */
  cachedDismissals: Dismissal[];
  warn: (line: string) => void;
  /** How often to look for a pushed head; pull-request.ts's pace when absent. */
  headPollMs?: number;
  /** Once the run is cancelled, no push starts. */
  cancellation?: Cancellation;
  /** The project's installation and the head's test run (project-setup.ts). */
  setup: ProjectSetup;
  /** Every secret value the run knows: a fix commit holding one is refused. */
  secretValues: () => readonly string[];
  /**
   * The PR's threads and reviews as read before the set-up (to find replies to answer), when the
   * run has written nothing to them since: the first round takes them instead of a second read.
   */
  threadsAtStart?: ThreadsAndReviews | null;
  /** Who may answer a decision: the run's one check (run-decide.ts), asked when a decision's thread is dismissed. */
  mayAnswer: MayAnswer;
}

export function loopSteps(w: RunWiring): LoopSteps {
  const { config, octokit, repo, meta, git, checkout, log } = w;
  const timeoutMs = config.agentTimeoutMinutes * 60_000;
  const hookCommands = hooksForPr(config.hooks, w.fork && !config.allowForkFixes, log, w.prCodeWithheld);
  const hooks = createHookRunner({
    hooks: hookCommands,
    cwd: w.cwd,
    scratchDir: w.scratchDir,
    env: w.commandEnv,
    timeoutMs,
    redact: w.redact,
    learnSecrets: w.learnSecrets,
    log,
    sandbox: w.sandbox,
  });
  const roleEnv: RoleEnv = {
    registry: w.registry,
    prompts: w.prompts,
    workDir: w.cwd,
    scratchDir: w.scratchDir,
    timeoutMs,
    budget: w.budget,
    log,
    learnSecrets: w.learnSecrets,
    ...(config.instructions ? { instructions: config.instructions } : {}),
  };
  // What the base commit holds is read once per run, not once per round.
  const directoryRules = directoryRulesLookup({ git, fileName: config.rulesFile, log });
  // Each reviewer's CLI session, resumed from round to round.
  const sessions: ReviewerSessions = new Map();
  const dismissals = dismissalTracker({
    ownLogin: w.ownLogin,
    cached: w.cachedDismissals,
    log,
    mayDismiss: (login) => writeAccess(octokit, repo, login),
    // Asked only when a decision's thread is dismissed or resolved; a team it cannot read fails then.
    mayAnswer: w.mayAnswer,
  });
  const fixEnv: FixEnv = {
    ...roleEnv,
    git,
    fixer: config.fixer,
    ...(config.gateReviewer ? { gate: config.gateReviewer } : {}),
    gateMaxLoops: config.gateMaxLoops,
    verify: config.verify,
    dryRun: config.dryRun,
    verifyEnv: w.commandEnv,
    sandbox: w.sandbox,
    redact: w.redact,
    log,
    session: { id: null, history: [] },
    commitExclude: checkout.commitExclude,
    confirm: config.confirm,
    alreadyConfirmed: new Set(w.alreadyConfirmed),
    beforePush: async () => {
      w.cancellation?.check();
      return checkout.restoreGitConfig();
    },
    beforeGate: checkout.restoreAgentConfig,
    pushRemote: w.push.remote,
    beforeVerify: (changed) => w.setup.beforeVerify(changed),
    secretValues: w.secretValues,
  };
  const inline = createInlineReview({
    enabled: config.inlineComments,
    octokit,
    repo,
    prNumber: meta.number,
    ownLogin: w.ownLogin,
    publisher: w.publisher,
    reportCtx: w.reportCtx,
    redact: w.redact,
    log,
    warn: w.warn,
    quiet: { minPriority: config.inlineMinPriority, maxComments: config.inlineMaxComments ?? null },
  });
  // The setup check's attempts are kept with the checks' (ci/setup-check.ts).
  const ciAttempts = () => (config.waitForChecks.length || config.setup.length ? w.ci.attempts() : null);
  const { include, exclude } = config.paths;
  const keep = include.length || exclude.length ? { keep: makePathMatcher(config.paths) } : {};
  const budget = { maxDiffLines: config.maxDiffLines, maxDiffChars: config.maxDiffChars, ...keep };
  const poll = w.headPollMs ? { delayMs: w.headPollMs } : {};
  let threadsAtStart = w.threadsAtStart ?? undefined;
  return {
    loadContext: async (m, since) => {
      // A fixer may have rewritten agent config files; later rounds' agents must not load them.
      await checkout.beforeRound();
      // Only the first round's, of the head the run started on: later rounds read what rounds wrote.
      const read = m.headSha === meta.headSha ? threadsAtStart : undefined;
      threadsAtStart = undefined;
      const ctx = await loadPrContext(octokit, repo, m, budget, { git, log }, since, read);
      // What people wrote in the threads (replies included) may be quoted by the action and the agents.
      w.learnSecrets(ctx.threads.map((t) => t.comments.map((c) => c.body)));
      return ctx;
    },
    // Findings and the fixer's words are redacted where they are made: see redact-finding.ts.
    review: async (plan) => {
      const changed = plan.ctx.files.map((f) => f.filename);
      const rules = await directoryRules(plan.ctx.meta.baseSha, changed);
      if (rules.length) log(`review: rules files of the changed folders: ${rules.map((r) => r.path).join(', ')}`);
      const open = new Set((plan.decisions ?? []).filter((d) => !d.answer).map((d) => d.finding.id));
      const dismissed = await dismissals.forRound(plan.ctx.threads, plan.fixedBefore, open);
      const head = await w.setup.beforeReview(plan.ctx, {
        ours: plan.round > 1,
        ciOnly: plan.ciOnly ?? false,
        ci: w.ci,
      });
      const ci = withSetupVerdict(plan.ci ?? null, plan.ctx.meta.headSha, head.verdict);
      // What people settled: the dismissed findings, then the answered decisions, in one part of the prompt.
      const settled = [
        dismissedFindingsPrompt(w.prompts, dismissed.dismissals),
        decidedFindingsPrompt(w.prompts, plan.decisions ?? []),
      ].filter(Boolean);
      const env = {
        ...roleEnv,
        ...(head.prompt ? { projectSetup: head.prompt } : {}),
        ...(rules.length ? { directoryRules: directoryRulesPrompt(w.prompts, rules) } : {}),
        ...(settled.length ? { dismissedFindings: settled.join('\n\n') } : {}),
      };
      const outcome = await runReviewRound(env, {
        ...plan,
        ...(ci ? { ci } : {}),
        contextFiles: head.contextFiles,
        reviewers: config.reviewers,
        analyzer: config.analyzer,
        sessions,
        dismissals: dismissed.dismissals,
        refusedDismissals: dismissed.refused,
        // The reviewers' places are checked against the files of the head they reviewed.
        headLines: (files) => linesAtCommit(git, plan.ctx.meta.headSha, files),
      });
      const { record } = outcome;
      if (rules.length) record.ruleFiles = rules.map((r) => r.path);
      if (head.record) record.setup = head.record;
      return { ...outcome, record: redactRecord(record, w.redact) };
    },
    fix: async (ctx, round, findings) => {
      const installed = w.setup.fixerPrompt();
      const rec = await runFixRound({ ...fixEnv, ...(installed ? { installed } : {}) }, ctx, round, findings);
      if (rec.outcome === 'pushed') {
        // One attempt at a failing setup, counted like a failing check's (loop.ts counts those).
        if (findings.some((f) => f.id === SETUP_FINDING_ID)) w.ci.attempted([SETUP_FINDING_ID]);
        w.setup.verified(rec.commitSha!, rec.verify);
      }
      rec.fixed = rec.fixed.map((f) => ({ ...f, description: w.redact(f.description) }));
      rec.rejected = rec.rejected.map((r) => ({ ...r, reason: w.redact(r.reason) }));
      if (rec.deferred) rec.deferred = rec.deferred.map((d) => ({ ...d, reason: w.redact(d.reason) }));
      return rec;
    },
    ...roundReports({ publisher: w.publisher, reportCtx: w.reportCtx, writer: w.writer, inline, ciAttempts }),
    // What a hook leaves in the checkout is put back after it, as verify's is (git/put-back.ts).
    hook: (point, info) =>
      hookCommands[point].length
        ? putBackAfter(git, `the ${point} hook`, log, () => hooks.run(point, info))
        : hooks.run(point, info),
    waitForHead: (sha) => waitForHead(octokit, repo, meta.number, sha, poll),
    afterPush: (headRef) => dispatchWorkflows(octokit, repo, config.dispatchWorkflows, headRef, log),
    // The next round's reviewers start together: the budget must cover all of them, as round.ts
    // judges each of them (an analyzer it would not cover is skipped). A checks-only round runs the fixer.
    budgetSpent: (ciOnly) =>
      w.budget.spentReason(
        ciOnly ? { role: 'fixer', concurrent: 1 } : { role: 'reviewer', concurrent: config.reviewers.length },
      ),
    checks: (sha, ours) => w.ci.check(sha, ours),
    ciAttempted: (ids) => w.ci.attempted(ids),
    log,
  };
}
