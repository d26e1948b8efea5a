// The one way to call an agent in a role: write the role's context folder, fill its
// prompt template, run the CLI through the registry (which checks the model it reports and
// parses the envelope), and record the call as an AgentRun for the report. A failed agent is
// an outcome, never a throw; a context folder that cannot be written or a template with an
// unknown placeholder is a bug of ours and throws.
import path from 'node:path';
import type * as z from 'zod';
import type { AgentRegistry } from '../agents/registry.js';
import { runRole } from '../agents/run-role.js';
import type { RoleOutcome } from '../agents/run-role.js';
import { NO_USAGE, type AgentKind, type AgentSpec, type Invocation, type Role } from '../agents/types.js';
import type { Budget } from '../budget/budget.js';
import type { PrContext } from '../domain/pull-request.js';
import { writeContextDir, type ContextData } from './context-dir.js';
import { withFallbacks, type ReviewerPanel } from './fallback.js';
import { sharedPromptValues } from './prompt-data.js';
import { fillTemplate, type PromptName, type Prompts } from './prompts.js';
import type { RoleResult } from '../agents/run-role.js';

/** Each role's own prompt template. */
const ROLE_PROMPTS: Record<Role, PromptName> = {
  reviewer: 'reviewer',
  analyzer: 'analyzer',
  fixer: 'fixer',
  gate: 'gate',
  confirm: 'confirm',
  answerer: 'answer',
};

/** What every call of a run shares. */
export interface RoleEnv {
  registry: AgentRegistry;
  prompts: Prompts;
  /** The checkout the agents run in. */
  workDir: string;
  /** Private scratch folder of this run (context folders, state homes). */
  scratchDir: string;
  timeoutMs: number;
  instructions?: string;
  /** The rules files of the folders the PR changes, filled into prompts/directory-rules.md. */
  directoryRules?: string;
  /** The findings people dismissed, filled into prompts/dismissed-findings.md. */
  dismissedFindings?: string;
  /** What the action ran on the head before the review, filled into prompts/setup-review.md. */
  projectSetup?: string;
  /** The run's budget: checked before each call, charged after it. */
  budget?: Budget;
  log?: (line: string) => void;
  /**
   * Told every answer as it arrives, before anything of it is shown: a secret the answer quotes in
   * context in one field is then redacted from its bare copies in every other (run-secrets.ts).
   */
  learnSecrets?: (data: unknown) => void;
}

export interface RoleCall<T> {
  role: Role;
  /** Role instance (reviewer-2, fixer, confirm, …): names the agent in reports and logs. */
  name: string;
  spec: AgentSpec;
  ctx: PrContext;
  round: number;
  /** The files of the context folder, written for this call; or */
  data?: ContextData;
  /** a context folder already written for calls that read the same bytes (the reviewers of a round). */
  contextDir?: string;
  /** The context folder's name in the round's scratch folder; `name` when not given. */
  folder?: string;
  /** The CLI's state home; `<folder>-home` next to the context folder when not given. */
  stateDir?: string;
  /** The prompt template; the role's own when not given. */
  template?: PromptName | undefined;
  /** Template values beyond the ones every prompt shares. */
  values?: Record<string, string | number>;
  sessionId?: string | null;
  schema: z.ZodType<T>;
  /** Calls starting together with this one (the reviewers of a round): they share what is left. */
  concurrent?: number;
  /** Calls of this role starting together, that the budget must cover all of; `concurrent` when not given. */
  fitAmong?: number;
  /** The round's reviewers and the models they run: a fallback one of them runs is skipped. */
  panel?: ReviewerPanel;
}

/**
 * Calls the role's model, then its fallbacks (roles/fallback.ts) while the model cannot take the
 * call. Each attempt is checked against the budget and charged to it on its own.
 */
export async function callRole<T>(env: RoleEnv, call: RoleCall<T>): Promise<RoleResult<T>> {
  const who = { name: call.name, ...(call.panel ? { panel: call.panel } : {}), ...(env.log ? { log: env.log } : {}) };
  // A fallback starts a fresh session with the role's own prompt: the session was the first model's.
  const fresh = (spec: AgentSpec): RoleCall<T> => ({
    ...call,
    spec,
    sessionId: null,
    template: call.sessionId ? undefined : call.template,
  });
  return withFallbacks(call.spec, who, (spec, first) => callOnce(env, first ? call : fresh(spec)));
}

async function callOnce<T>(env: RoleEnv, call: RoleCall<T>): Promise<RoleResult<T>> {
  // Throws BudgetSpent: no call starts once the budget is spent, or when it would not fit.
  env.budget?.beforeCall(`the ${call.name} call of round ${call.round}`, {
    role: call.role,
    concurrent: call.fitAmong ?? call.concurrent ?? 1,
  });
  const bound = env.budget?.callBound(call.concurrent ?? 1) ?? {};
  const roundDir = path.join(env.scratchDir, `round-${call.round}`);
  const folder = call.folder ?? call.name;
  if (!call.contextDir && !call.data) throw new Error(`the ${call.name} call has no context`);
  const contextDir = call.contextDir ?? (await writeContextDir(roundDir, folder, call.data!));
  const { instructions, directoryRules, dismissedFindings, projectSetup } = env;
  const guidance = { ...(instructions ? { instructions } : {}), directoryRules, dismissedFindings, projectSetup };
  const shared = sharedPromptValues(call.ctx, call.round, contextDir, guidance);
  const result = await runInvocation(
    env.registry,
    call.spec.agent,
    {
      role: call.role,
      name: call.name,
      model: call.spec.model,
      prompt: fillTemplate(env.prompts[call.template ?? ROLE_PROMPTS[call.role]], { ...shared, ...call.values }),
      cwd: env.workDir,
      contextDir,
      stateDir: call.stateDir ?? path.join(roundDir, `${folder}-home`),
      round: call.round,
      timeoutMs: env.timeoutMs,
      ...(call.sessionId ? { sessionId: call.sessionId } : {}),
      ...bound,
    },
    call.schema,
  );
  const { outcome } = result;
  // The answer as it came, and what was read from it (with JSON's escapes undone).
  env.learnSecrets?.([outcome.answer?.text ?? '', outcome.ok ? outcome.value : outcome.error]);
  env.budget?.record(call.round, result.run);
  return result;
}

/** Runs one invocation on the adapter of `agent`; an unknown agent is a failed outcome too. */
async function runInvocation<T>(
  registry: AgentRegistry,
  agent: AgentKind,
  inv: Invocation,
  schema: z.ZodType<T>,
): Promise<RoleResult<T>> {
  const started = Date.now();
  let outcome: RoleOutcome<T>;
  try {
    outcome = await runRole(registry.get(agent), inv, schema);
  } catch (e) {
    outcome = { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  const answer = outcome.answer;
  return {
    outcome,
    run: {
      name: inv.name,
      role: inv.role,
      agent,
      modelRequested: inv.model,
      modelReported: answer?.model ?? null,
      status: outcome.ok ? 'ok' : 'failed',
      error: outcome.ok ? null : outcome.error,
      durationMs: answer?.durationMs ?? Date.now() - started,
      usage: answer?.usage ?? (outcome.ok ? undefined : outcome.usage) ?? NO_USAGE,
    },
  };
}
