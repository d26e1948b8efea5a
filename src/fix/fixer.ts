// The fixer's call: the PR, the payload and the gate's feedback in its context; its
// session resumed across gate loops and rounds where the CLI can, else the earlier rounds'
// outcome told to a fresh session; the checkout's .git/config guarded around it.
import path from 'node:path';
import { fixResultSchema, MAX_DECISION_OPTIONS } from '../agents/envelope.js';
import { guardLocalConfig } from '../git/config-guard.js';
import type { PrContext } from '../domain/pull-request.js';
import { callRole } from '../roles/call.js';
import { fillTemplate } from '../roles/prompts.js';
import { prContextData } from '../roles/context-data.js';
import { freshIfResumeFailed } from '../roles/agent-runs.js';
import { fenceAsData } from '../security/untrusted.js';
import type { FixEnv } from './env.js';
import { prFilePaths } from '../roles/finding-data.js';
import { payloadForAgents, type FixPayload } from './payload.js';

export interface FixCall {
  ctx: PrContext;
  round: number;
  /** The gate loop: each has its own context folder. */
  loop: number;
  payload: FixPayload;
  /** What the fixer is told besides the payload (the gate's requested changes), fenced as data. */
  feedback: string;
  /** The test files that confirmed findings: the fix must make them pass without changing them. */
  confirmedTests?: readonly string[];
}

/**
 * Runs the fixer, resuming its session when there is one. When the CLI cannot resume (the
 * session is gone, or the CLI has no sessions), a fresh session gets the earlier rounds'
 * outcome in the prompt instead.
 */
export async function callFixer(env: FixEnv, call: FixCall) {
  const { ctx, round, loop } = call;
  // Without verify commands the fixer is told so, not handed an empty list to run and make pass.
  const verifyRule =
    env.verify === 'none' || env.verify.length === 0
      ? env.prompts['fixer-no-verify'].trimEnd()
      : fillTemplate(env.prompts['fixer-verify'], {
          verifyCommands: env.verify.map((c) => `  - \`${c}\``).join('\n'),
        }).trimEnd();
  const attempt = async (sessionId: string | null, priorContext: string) => {
    const restoreConfig = await guardLocalConfig(env.git);
    const result = await callRole(env, {
      role: 'fixer',
      name: 'fixer',
      folder: `fixer-${loop}`,
      // One home for every round: a resumed session lives there.
      stateDir: path.join(env.scratchDir, 'fixer-home'),
      spec: env.fixer,
      ctx,
      round,
      data: { ...prContextData(ctx), fixPayload: payloadForAgents(call.payload, prFilePaths(ctx.files)) },
      values: {
        priorContext,
        verifyRule,
        confirmedTests: confirmedTestsRule(env, call.confirmedTests ?? []),
        installed: env.installed ?? env.prompts['fixer-no-setup'].trimEnd(),
        decisionRules: fillTemplate(env.prompts['fixer-decisions'], { maxOptions: MAX_DECISION_OPTIONS }).trimEnd(),
      },
      sessionId,
      schema: fixResultSchema,
    });
    if (await restoreConfig()) env.log('the fixer changed .git/config; the action restored it');
    return result;
  };
  const sessionId = env.session.id;
  const result = await freshIfResumeFailed(sessionId, await attempt(sessionId, call.feedback), () => {
    env.log(`the fixer could not resume session ${sessionId}; starting a fresh session with the earlier context`);
    const earlier = env.session.history.join('\n');
    const history = earlier ? fenceAsData('Earlier in this run', earlier) : '';
    return attempt(null, [history, call.feedback].filter(Boolean).join('\n\n'));
  });
  env.session.id = result.outcome.answer?.sessionId ?? (result.outcome.ok ? null : env.session.id);
  if (result.outcome.ok) {
    const v = result.outcome.value;
    const fixed = v.fixedIssues.map((f) => f.findingId).join(', ') || 'nothing';
    const rejected = v.rejectedIssues.map((r) => `${r.findingId} (${r.reason})`).join(', ') || 'nothing';
    env.session.history.push(`- Round ${round}: fixed ${fixed}; rejected ${rejected}.`);
  }
  return result;
}

/** The rule about confirmed test files (prompts/fixer-confirmed-tests.md), or nothing when none was confirmed. */
function confirmedTestsRule(env: FixEnv, files: readonly string[]): string {
  if (files.length === 0) return '';
  // The paths were checked to be test files of the checkout; JSON quoting keeps each one token.
  const testFiles = files.map((f) => `  - ${JSON.stringify(f)}`).join('\n');
  return fillTemplate(env.prompts['fixer-confirmed-tests'], { testFiles }).trimEnd();
}
