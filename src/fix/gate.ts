// The gate reviewer: an independent agent reads the PR, the payload and the fix as a
// patch, and approves it or asks for changes, which go back to the fixer fenced as data.
import { modelName, runModel } from '../config/same-model.js';
import { gateResultSchema } from '../agents/envelope.js';
import { callRole } from '../roles/call.js';
import { prContextData } from '../roles/context-data.js';
import type { FixEnv } from './env.js';
import type { FixCall } from './fixer.js';
import { prFilePaths } from '../roles/finding-data.js';
import { payloadForAgents } from './payload.js';

export async function runGate(env: FixEnv, call: Omit<FixCall, 'feedback'>) {
  const { ctx, loop } = call;
  const diff = await env.git(['diff', '--no-ext-diff', '--no-textconv', ctx.meta.headSha, 'HEAD']);
  const { outcome, run } = await callRole(env, {
    role: 'gate',
    name: 'gate',
    folder: `gate-${loop}`,
    spec: env.gate!,
    ctx,
    round: call.round,
    data: {
      ...prContextData(ctx),
      fixPayload: payloadForAgents(call.payload, prFilePaths(ctx.files)),
      extra: { 'fix.patch': diff.stdout },
    },
    schema: gateResultSchema,
  });
  if (!outcome.ok) return { approved: false, feedback: `the gate reviewer failed: ${outcome.error}`, model: null };
  env.log(`gate (loop ${loop}): ${outcome.value.decision}`);
  return {
    approved: outcome.value.decision === 'approve',
    /** The model that answered (a fallback's, when the gate's own could not): it checked the fix. */
    model: modelName(runModel(run)),
    feedback: outcome.value.requestedChanges.map((c) => `- ${c}`).join('\n') || outcome.value.summary,
  };
}
