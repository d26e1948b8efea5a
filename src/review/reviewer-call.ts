// One reviewer's call: from round 2 on, a reviewer whose CLI gave a session
// resumes it, so the model keeps its own reading of the PR and is asked only for what is new;
// a reviewer without a session (a CLI that cannot resume, or a session that failed) gets the
// whole prompt, which from round 2 on carries the earlier findings and the delta instead.
import path from 'node:path';
import { reviewerResultSchema } from '../agents/envelope.js';
import type { AgentSpec } from '../agents/types.js';
import type { PrContext } from '../domain/pull-request.js';
import { freshIfResumeFailed } from '../roles/agent-runs.js';
import { callRole, type RoleEnv } from '../roles/call.js';
import type { ReviewerPanel } from '../roles/fallback.js';

/** Each reviewer's session (reviewer-1 → session id), kept by the loop from round to round. */
export type ReviewerSessions = Map<string, string>;

export interface ReviewerCall {
  name: string;
  spec: AgentSpec;
  ctx: PrContext;
  round: number;
  contextDir: string;
  /** The reviewer prompt's later-round part ('' in round 1), the same for every reviewer of the round. */
  laterRound: string;
  /** This reviewer's own words for the earlier findings it reported ('' when none). */
  ownEarlier: string;
  /** Calls starting together (the round's reviewers and analyzer): they share the budget left. */
  concurrent: number;
  /** The round's reviewers. */
  reviewers: number;
  /** The models the round's reviewers run: a fallback among them is skipped. */
  panel?: ReviewerPanel;
}

export async function callReviewer(env: RoleEnv, sessions: ReviewerSessions, call: ReviewerCall) {
  const { name, ctx } = call;
  // The same words for every reviewer and round: a provider's prompt cache serves them again.
  const answerFormat = env.prompts['reviewer-answer'];
  const largeDiff = ctx.diffTruncated ? env.prompts['large-diff'].trim() : '';
  const attempt = (sessionId: string | null) =>
    callRole(env, {
      role: 'reviewer',
      name,
      spec: call.spec,
      ctx,
      round: call.round,
      contextDir: call.contextDir,
      // One home for every round: a resumed session lives there.
      stateDir: path.join(env.scratchDir, `${name}-home`),
      ...(sessionId ? { template: 'reviewer-resumed' as const, sessionId } : {}),
      values: { laterRound: call.laterRound, ownEarlier: call.ownEarlier, answerFormat, largeDiff },
      schema: reviewerResultSchema,
      concurrent: call.concurrent,
      // The loop checked that all the round's reviewers fit before the round (loop-steps.ts budgetSpent).
      fitAmong: call.reviewers,
      ...(call.panel ? { panel: call.panel } : {}),
    });
  const sessionId = sessions.get(name) ?? null;
  const result = await freshIfResumeFailed(sessionId, await attempt(sessionId), () => {
    env.log?.(`${name} could not resume session ${sessionId}; starting a fresh session with the whole prompt`);
    return attempt(null);
  });
  const next = result.outcome.answer?.sessionId;
  if (next) sessions.set(name, next);
  else sessions.delete(name);
  return result;
}
