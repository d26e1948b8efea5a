// One review round (SPEC §5): reviewers and the analyzer run concurrently; findings are
// normalised, grouped, checked for stuck ones, counted, and a consensus is computed.
import path from 'node:path';
import { analyzerResultSchema, reviewerResultSchema, type RawFinding } from '../agents/envelope.js';
import type { AgentRegistry } from '../agents/registry.js';
import { writeContextDir } from '../roles/context-dir.js';
import type { AgentSpec } from '../agents/types.js';
import type { PrContext } from '../github/types.js';
import { fillTemplate, type Prompts } from '../roles/prompts.js';
import { cleanDeep } from '../security/untrusted.js';
import { runAgentRole } from '../roles/call.js';
import { consensus } from './consensus.js';
import { countFindings, groupFindings, normalizeFinding, sortFindings } from './findings.js';
import { sharedPromptValues } from '../roles/prompt-data.js';
import { markStuck, type FixedFingerprint } from './stuck.js';
import { splitByWriters, threadFindings, threadsForReview } from './threads.js';
import type { AgentRun, ReviewRoundRecord } from './types.js';
import type { HookRunner } from '../commands/hooks.js';

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
 * The context files of the roles that change code or judge a change (fixer, gate, confirmer).
 * People's text (title, body, file names) is cleaned of hidden content; the diff is code under
 * review and stays byte-exact, so an agent can see exactly what the PR changes, invisible
 * characters included. No review threads: anyone can write one (SPEC §5).
 */
export function fixContextData(ctx: PrContext) {
  return {
    ...cleanDeep({
      pr: { ...ctx.meta, diffTruncated: ctx.diffTruncated },
      files: ctx.files,
      reviewState: { ...ctx.reviewState, threadsTruncated: ctx.threadsTruncated },
    }),
    diff: ctx.diff,
  };
}

/** The reviewers' and the analyzer's context: the above and the unresolved threads, outsiders' marked. */
export function reviewContextData(ctx: PrContext) {
  return { ...fixContextData(ctx), threads: cleanDeep(threadsForReview(ctx.threads)) };
}

export async function runReviewRound(env: RoundEnv, plan: RoundPlan): Promise<RoundOutcome> {
  const { ctx, round } = plan;
  const hookInfo = {
    round,
    prNumber: ctx.meta.number,
    headSha: ctx.meta.headSha,
    baseSha: ctx.meta.baseSha,
    files: ctx.files.map((f) => f.filename),
  };
  const beforeHook = (await env.hooks?.run('before-review', hookInfo)) ?? [];
  const roundDir = path.join(env.scratchDir, `round-${round}`);
  const data = reviewContextData(ctx);
  const role = async (name: string) => {
    const contextDir = await writeContextDir(roundDir, name, data);
    return {
      contextDir,
      stateDir: path.join(roundDir, `${name}-home`),
      values: sharedPromptValues(ctx, round, contextDir, env.instructions),
    };
  };
  const common = { cwd: env.workDir, round, timeoutMs: env.timeoutMs };

  const reviewerJobs = plan.reviewers.map(async (spec, i) => {
    const name = `reviewer-${i + 1}`;
    const r = await role(name);
    const prompt = fillTemplate(env.prompts.reviewer, { ...r.values, agentName: name });
    return runAgentRole(
      env.registry,
      { ...common, role: 'reviewer', name, spec, prompt, contextDir: r.contextDir, stateDir: r.stateDir },
      reviewerResultSchema,
    );
  });
  const { writers, outsiders } = splitByWriters(ctx.threads);
  // No unresolved threads: the analyzer's answer is known without a model (SPEC §5).
  const analyzerJob =
    writers.length + outsiders.length === 0
      ? Promise.resolve(null)
      : role('analyzer').then((r) =>
          runAgentRole(
            env.registry,
            {
              ...common,
              role: 'analyzer',
              name: 'analyzer',
              spec: plan.analyzer,
              prompt: fillTemplate(env.prompts.analyzer, r.values),
              contextDir: r.contextDir,
              stateDir: r.stateDir,
            },
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
  const afterHook =
    (await env.hooks?.run('after-review', {
      ...hookInfo,
      findings: raw.map((r) => ({ ...r.finding, reviewer: r.reviewer })),
    })) ?? [];
  raw.push(
    ...beforeHook.map((finding) => ({ finding, reviewer: 'hook:before-review' })),
    ...afterHook.map((finding) => ({ finding, reviewer: 'hook:after-review' })),
  );

  let pending: RawFinding[] = [];
  let failure: string | null = okCount === 0 ? 'no reviewer succeeded' : null;
  if (analyzerResult) {
    agents.push(analyzerResult.run);
    if (analyzerResult.outcome.ok) pending = analyzerResult.outcome.value.pendingIssues;
    // With only outsiders' threads, a failed analyzer costs their summaries, not the run: an
    // outsider's comment must not be able to stop the loop.
    else if (writers.length > 0) failure = `the review-thread analyzer failed: ${analyzerResult.outcome.error}`;
  }

  const renames = new Map(ctx.files.filter((f) => f.previousFilename).map((f) => [f.previousFilename!, f.filename]));
  const grouped = groupFindings(raw.map((r) => normalizeFinding(r.finding, r.reviewer)));
  const { active, stuck } = markStuck(grouped, plan.fixedBefore, renames);
  const threads = threadFindings(writers, pending);
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
      unresolvedThreads: writers.length,
      outsiderThreads: sortFindings(threadFindings(outsiders, pending)),
      threadsTruncated: ctx.threadsTruncated,
      changesRequestedBy: ctx.reviewState.changesRequestedBy,
    },
  };
}
