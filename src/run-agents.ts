// Phase three of a run (run.ts): the sandbox user every agent, verify command and hook runs as,
// the agents, whether and where the run may push, the checkout prepared for the agents; then the
// replies in the action's threads answered, which a run that skips its review still does.
import path from 'node:path';
import { agentsForRun, type RunAgentsSetup } from './agents/for-run.js';
import type { AgentRegistry } from './agents/registry.js';
import type { AgentAdapter, AgentKind } from './agents/types.js';
import type { Budget } from './budget/budget.js';
import type { Cancellation } from './cancellation.js';
import type { ResolvedConfig } from './config/repo-config.js';
import type { ActionIO } from './domain/io.js';
import type { PrMeta, RepoRef } from './domain/pull-request.js';
import type { Octokit } from './github/client.js';
import type { TokenIdentity } from './github/identity.js';
import { writeAccess } from './github/permissions.js';
import { loadPrContext, type ContextBudget } from './github/pr-context.js';
import type { ThreadsAndReviews } from './github/threads.js';
import { describeHandBack, handBackCheckout, snapshotCheckout } from './git/hand-back.js';
import { prepareForAgents, type PreparedCheckout } from './git/prepare.js';
import type { Git } from './git/runner.js';
import { keylessNote } from './preflight/keys.js';
import type { PriorRuns } from './preflight/memory.js';
import { planPush, type PushPlan } from './preflight/push-plan.js';
import { supersedeReports } from './report/outdated-reports.js';
import type { Publisher } from './report/publish.js';
import { answerReplies } from './review/thread-answers.js';
import type { Prompts } from './roles/prompts.js';
import { openSandbox } from './sandbox/announce.js';
import type { Sandbox } from './sandbox/sandbox.js';
import { prCodeWithheld } from './sandbox/withheld.js';

type AgentsConfig = Pick<
  ResolvedConfig,
  | 'isolation'
  | 'callLimits'
  | 'homeFolders'
  | 'hideOutdatedReports'
  | 'mode'
  | 'allowForkFixes'
  | 'reviewers'
  | 'analyzer'
  | 'fixer'
  | 'gateReviewer'
  | 'agentCommand'
  | 'agentConfig'
  | 'agentVersions'
  | 'cacheClis'
  | 'agentEnv'
  | 'verifyEnv'
  | 'setupEnv'
>;

export interface AgentsInput {
  config: AgentsConfig;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The sandbox records itself through it (saveState), for the post step. */
  io: ActionIO;
  /** The values agentEnv drops from every agent's environment. */
  secrets: string[];
  log: (line: string) => void;
  warn: (line: string) => void;
  /** Real CLI adapters (tests); the installed CLIs when absent. */
  adapters?: Partial<Record<AgentKind, AgentAdapter>>;
  cancellation?: Cancellation;
  /** What the run must close, newest last: the sandbox joins it as soon as it is open. */
  closers: Array<() => Promise<void>>;
  /** The run's own folder (RUNNER_TEMP), out of every call's reach. */
  scratchDir: string;
  octokit: Octokit;
  repo: RepoRef;
  meta: PrMeta;
  git: Git;
  fork: boolean;
  identity: TokenIdentity;
  publisher: Publisher;
  /** The earlier reports a new one supersedes (preflight/memory.ts). */
  prior: Pick<PriorRuns, 'reports'>;
  /** The models not started for want of a key (preflight/keys.ts). */
  keyless: ReadonlyMap<string, string[]>;
  /** The run only answers replies, then ends skipped: only the answerer's CLIs are set up. */
  answerOnly: boolean;
}

export interface Agents {
  sandbox: Sandbox;
  registry: AgentRegistry;
  /** The token-free environment of verify commands and hooks. */
  commandEnv: NodeJS.ProcessEnv;
  /** The token-free environment of setup commands: the names in setup-env. */
  setupEnv: NodeJS.ProcessEnv;
  /** Why the fixer, verify commands and hooks may not run (sandbox/withheld.ts), or null. */
  prCodeWithheld: string | null;
  push: PushPlan;
  checkout: PreparedCheckout;
}

export async function openAgents(a: AgentsInput): Promise<Agents> {
  const { config, log, warn, octokit, publisher } = a;
  const keylessLine = keylessNote(a.keyless);
  if (keylessLine) warn(keylessLine);
  const enabled = config.hideOutdatedReports;
  publisher.onPosted = supersedeReports({ octokit, enabled, earlier: a.prior.reports, log, warn });
  const sandbox = await openSandbox(config.isolation, a.cwd, a.io, {
    callLimits: config.callLimits,
    homeFolders: config.homeFolders,
  });
  // The checkout as the run found it, handed back when the last call has ended (git/hand-back.ts).
  const { git } = a;
  const copiesDir = path.join(a.scratchDir, 'checkout-copies');
  const found = await snapshotCheckout(git, a.cwd, { copiesDir, callsRunAsOwner: sandbox.user === null });
  a.closers.push(async () => {
    await sandbox.close();
    const { info, warnings } = describeHandBack(await handBackCheckout(git, found));
    for (const line of info) log(line);
    for (const line of warnings) warn(line);
  });
  // Cancelled: every agent, verify command and hook still running is stopped (closing the sandbox
  // kills what its user runs); the steps then start nothing new.
  a.cancellation?.signal.addEventListener(
    'abort',
    () => {
      log('cancelled: stopping the agents; nothing new starts and no push begins');
      void sandbox.close().catch(() => undefined);
    },
    { once: true },
  );
  const { registry, commandEnv, setupEnv } = await agentsForRun({
    ...agentSettings(config, a.answerOnly),
    env: a.env,
    secrets: a.secrets,
    sandbox,
    log,
    ...(a.adapters ? { adapters: a.adapters } : {}),
  });
  const { mode, allowForkFixes } = config;
  // isolation: auto that could not isolate runs no PR code: the review goes on, nothing is fixed.
  const withheld = prCodeWithheld(config.isolation, sandbox);
  const { repo, meta, fork, identity, env } = a;
  const push = await planPush({
    ...{ octokit, repo, meta, git, mode, allowForkFixes, fork, identity, env },
    fixerWithheld: withheld,
  });
  // A token the event says is read-only writes nothing at all, not even a refused comment.
  if (push.readOnlyToken) publisher.refuseWrites(push.readOnlyToken);
  if (!push.canPush) log(`review-only: ${push.reason}`);
  // Agent config from the base branch, the commit identity, the local git config pinned.
  const checkout = await prepareForAgents(git, meta, log);
  return { sandbox, registry, commandEnv, setupEnv, prCodeWithheld: withheld, push, checkout };
}

type RoleSpecs = Pick<ResolvedConfig, 'reviewers' | 'analyzer' | 'fixer' | 'gateReviewer'>;

/**
 * The agent kinds a run sets up (installs, on demand): every one its roles and their fallbacks
 * name; on a run that only answers replies, the answerer's alone (the first reviewer's), so no
 * other CLI is installed while the person waits.
 */
export function agentKindsFor(config: RoleSpecs, answerOnly: boolean): AgentKind[] {
  const gate = config.gateReviewer ? [config.gateReviewer] : [];
  const roles = answerOnly ? [config.reviewers[0]!] : [...config.reviewers, config.analyzer, config.fixer, ...gate];
  return [...new Set(roles.flatMap((spec) => [spec, ...(spec.fallbacks ?? [])]).map((spec) => spec.agent))];
}

/** What agentsForRun needs from the config: the agent kinds to set up, and their settings. */
function agentSettings(
  config: AgentsConfig,
  answerOnly: boolean,
): Omit<RunAgentsSetup, 'env' | 'secrets' | 'sandbox' | 'log'> {
  return {
    kinds: agentKindsFor(config, answerOnly),
    ...(config.agentCommand ? { agentCommand: config.agentCommand } : {}),
    agentConfig: config.agentConfig,
    agentVersions: config.agentVersions,
    cacheClis: config.cacheClis,
    agentEnvNames: config.agentEnv,
    verifyEnvNames: config.verifyEnv,
    setupEnvNames: config.setupEnv,
  };
}

export interface AnswerInput {
  config: ContextBudget & Pick<ResolvedConfig, 'reviewers' | 'agentTimeoutMinutes' | 'mode' | 'dryRun'>;
  octokit: Octokit;
  repo: RepoRef;
  meta: PrMeta;
  git: Git;
  registry: AgentRegistry;
  prompts: Prompts;
  cwd: string;
  scratchDir: string;
  budget: Budget;
  ownLogin: string;
  /** The replies earlier runs answered. */
  prior: Pick<PriorRuns, 'answered'>;
  /** The threads and reviews as read-and-decide read them to count the waiting replies (run-decide.ts). */
  threadsRead: ThreadsAndReviews | null;
  push: Pick<PushPlan, 'canPush'>;
  publisher: Publisher;
  redact: (text: string) => string;
  log: (line: string) => void;
}

/** Answers the replies waiting in the action's threads, with the first reviewer's model. */
export async function answerWaiting(w: AnswerInput): Promise<void> {
  const { config, octokit, repo, meta, git, log, publisher } = w;
  const ctx = await loadPrContext(octokit, repo, meta, config, { git, log }, undefined, w.threadsRead ?? undefined);
  const env = {
    registry: w.registry,
    prompts: w.prompts,
    workDir: w.cwd,
    scratchDir: w.scratchDir,
    budget: w.budget,
    log,
  };
  const done = await answerReplies({
    octokit,
    ctx,
    ownLogin: w.ownLogin,
    spec: config.reviewers[0]!,
    env: { ...env, timeoutMs: config.agentTimeoutMinutes * 60_000 },
    answered: w.prior.answered,
    writeAccess: (login) => writeAccess(octokit, repo, login),
    fixes: w.push.canPush && config.mode !== 'review',
    redact: w.redact,
    log,
    post: !config.dryRun && !publisher.writesRefused,
  });
  publisher.answeredReplies.push(...done);
}
