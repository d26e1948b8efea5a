// One review round (SPEC §5): reviewers and the analyzer run concurrently; findings are
// normalised, grouped, checked for stuck ones, counted, and a consensus is computed.
import path from 'node:path';
import { analyzerResultSchema, reviewerResultSchema, type RawFinding } from '../agents/envelope.js';
import type { AgentRegistry } from '../agents/registry.js';
import { writeContextDir } from '../agents/context-dir.js';
import type { AgentSpec } from '../agents/types.js';
import type { PrContext } from '../github/types.js';
import { fillTemplate, type Prompts } from '../prompts.js';
import { cleanDeep } from '../security/untrusted.js';
import { runAgentRole } from './agent-runner.js';
import { consensus } from './consensus.js';
import { countFindings, groupFindings, normalizeFinding, sortFindings } from './findings.js';
import { sharedPromptValues } from './prompt-data.js';
import { markStuck, type FixedFingerprint } from './stuck.js';
import { humanUnresolved, threadFindings } from './threads.js';
import type { AgentRun, ReviewRoundRecord } from './types.js';
import type { HookRunner } from '../hooks.js';

export interface RoundEnv {
  registry: AgentRegistry;
  prompts: Prompts;
  /** The checkout the agents run in. */
  workDir: string;
  /** Private scratch folder of this run (context folders, state homes). */
  scratchDir: string;
  timeoutMs: number;
  instructions?: string;
  /** Lifecycle hooks; before-review and after-review may add findings to the round. */
  hooks?: HookRunner;
}

export interface RoundPlan {
  round: number;
  ctx: PrContext;
  reviewers: AgentSpec[];
  analyzer: AgentSpec;
  fixedBefore: FixedFingerprint[];
}

export interface RoundOutcome {
  record: ReviewRoundRecord;
  /** Why the loop must stop with a failure (no successful reviewer, failed analyzer). */
  failure: string | null;
}

/**
 * The context files. People's text (title, body, thread comments, file names) is cleaned of
 * hidden content; the diff is code under review and stays byte-exact, so a reviewer can see
 * exactly what the PR changes, invisible characters included.
 */
export function contextData(ctx: PrContext) {
  return {
    ...cleanDeep({
      pr: { ...ctx.meta, diffTruncated: ctx.diffTruncated },
      files: ctx.files,
      threads: humanUnresolved(ctx.threads),
      reviewState: { ...ctx.reviewState, threadsTruncated: ctx.threadsTruncated },
    }),
    diff: ctx.diff,
  };
}

export async function runReviewRound(env: RoundEnv, plan: RoundPlan): Promise<RoundOutcome> {
  const { ctx, round } = plan;
  const hookInfo = { round, prNumber: ctx.meta.number, headSha: ctx.meta.headSha, baseSha: ctx.meta.baseSha, files: ctx.files.map((f) => f.filename) };
  const beforeHook = (await env.hooks?.run('before-review', hookInfo)) ?? [];
  const roundDir = path.join(env.scratchDir, `round-${round}`);
  const data = contextData(ctx);
  const role = async (name: string) => {
    const contextDir = await writeContextDir(roundDir, name, data);
    return { contextDir, stateDir: path.join(roundDir, `${name}-home`), values: sharedPromptValues(ctx, round, contextDir, env.instructions) };
  };
  const common = { cwd: env.workDir, round, timeoutMs: env.timeoutMs };

  const reviewerJobs = plan.reviewers.map(async (spec, i) => {
    const name = `reviewer-${i + 1}`;
    const r = await role(name);
    const prompt = fillTemplate(env.prompts.reviewer, { ...r.values, agentName: name });
    return runAgentRole(env.registry, { ...common, role: 'reviewer', name, spec, prompt, contextDir: r.contextDir, stateDir: r.stateDir }, reviewerResultSchema);
  });
  const unresolved = humanUnresolved(ctx.threads);
  // No unresolved threads: the analyzer's answer is known without a model (SPEC §5).
  const analyzerJob =
    unresolved.length === 0
      ? Promise.resolve(null)
      : role('analyzer').then((r) =>
          runAgentRole(
            env.registry,
            { ...common, role: 'analyzer', name: 'analyzer', spec: plan.analyzer, prompt: fillTemplate(env.prompts.analyzer, r.values), contextDir: r.contextDir, stateDir: r.stateDir },
            analyzerResultSchema,
          ),
        );

  const [reviewerResults, analyzerResult] = await Promise.all([Promise.all(reviewerJobs), analyzerJob]);

  const agents: AgentRun[] = reviewerResults.map((r) => r.run);
  const raw: { finding: RawFinding; reviewer: string }[] = [];
  for (const r of reviewerResults) {
    if (r.outcome.ok) for (const f of r.outcome.value.findings) raw.push({ finding: f, reviewer: r.run.name });
  }
  const okCount = reviewerResults.filter((r) => r.outcome.ok).length;
  const afterHook = (await env.hooks?.run('after-review', { ...hookInfo, findings: raw.map((r) => ({ ...r.finding, reviewer: r.reviewer })) })) ?? [];
  raw.push(...beforeHook.map((finding) => ({ finding, reviewer: 'hook:before-review' })), ...afterHook.map((finding) => ({ finding, reviewer: 'hook:after-review' })));

  let pending: RawFinding[] = [];
  let failure: string | null = okCount === 0 ? 'no reviewer succeeded' : null;
  if (analyzerResult) {
    agents.push(analyzerResult.run);
    if (analyzerResult.outcome.ok) pending = analyzerResult.outcome.value.pendingIssues;
    else failure = `the review-thread analyzer failed: ${analyzerResult.outcome.error}`;
  }

  const renames = new Map(ctx.files.filter((f) => f.previousFilename).map((f) => [f.previousFilename!, f.filename]));
  const grouped = groupFindings(raw.map((r) => normalizeFinding(r.finding, r.reviewer)));
  const { active, stuck } = markStuck(grouped, plan.fixedBefore, renames);
  const threads = threadFindings(unresolved, pending);
  const all = sortFindings([...active, ...stuck, ...threads]);
  const counts = countFindings(all);

  return {
    failure,
    record: {
      round,
      headSha: ctx.meta.headSha,
      partial: okCount > 0 && okCount < plan.reviewers.length,
      agents,
      findings: sortFindings([...active, ...threads]),
      stuck,
      counts,
      consensus: consensus(counts, ctx.reviewState),
      unresolvedThreads: unresolved.length,
      threadsTruncated: ctx.threadsTruncated,
      changesRequestedBy: ctx.reviewState.changesRequestedBy,
    },
  };
}
