// One fix attempt (SPEC §6): fixer → one squashed commit → verify → gate (optional,
// looping back to the fixer) → guard → push. Nothing is pushed unless every step passed.
import path from 'node:path';
import { fixResultSchema, gateResultSchema, type FixResult } from '../agents/envelope.js';
import type { AgentSpec } from '../agents/types.js';
import { changedPathsInCommit } from '../git/changes.js';
import { squashSince } from '../git/commit.js';
import { guardLocalConfig } from '../git/config-guard.js';
import { confirmFindings } from './confirm.js';
import { pushHead } from '../git/push.js';
import type { Git } from '../git/runner.js';
import { callRole, type RoleEnv } from '../roles/call.js';
import { prContextData } from '../roles/context-data.js';
import type { AgentRun } from '../roles/types.js';
import type { Finding } from '../review/types.js';
import type { FixRoundRecord } from './types.js';
import { fixCommitMessage } from './commit-message.js';
import { refusedChanges } from './guard.js';
import { buildFixPayload, checkAccounting, payloadForAgents, type FixPayload } from './payload.js';
import { runVerify } from '../commands/verify.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { PrContext } from '../github/types.js';
import { fenceAsData } from '../security/untrusted.js';

export interface FixEnv extends RoleEnv {
  git: Git;
  fixer: AgentSpec;
  gate?: AgentSpec;
  gateMaxLoops: number;
  verify: string[];
  dryRun: boolean;
  verifyEnv: NodeJS.ProcessEnv;
  sandbox?: Sandbox;
  redact: (text: string) => string;
  log: (line: string) => void;
  /**
   * The fixer's session, resumed across gate loops and rounds where the CLI supports it;
   * `history` is what a fresh session is told when resuming is not possible.
   */
  session: { id: string | null; history: string[] };
  /** Paths never committed: agent config restored from the base branch on fork PRs. */
  commitExclude: readonly string[];
  confirm: 'none' | 'P0' | 'P1';
  alreadyConfirmed: Set<string>;
  /** Puts back the checkout's git config as it was before any agent ran; true when it had changed. */
  beforePush: () => Promise<boolean>;
  /**
   * Puts the agent config files (CLAUDE.md, .gemini/.env, OpenCode plugins, …) back to the base
   * branch's before the gate reads the checkout: the fixer may have written them, and they are
   * never committed anyway (commitExclude).
   */
  beforeGate?: () => Promise<unknown>;
  /** `origin`, or the fork's URL when fixes for a fork PR are allowed. */
  pushRemote: string;
}

export async function runFixRound(
  env: FixEnv,
  ctx: PrContext,
  round: number,
  findings: Finding[],
): Promise<FixRoundRecord> {
  const previousHeadSha = ctx.meta.headSha;
  const payload = buildFixPayload(ctx.meta.number, round, findings);
  const rec: FixRoundRecord = {
    round,
    outcome: 'fixer-failed',
    fixer: null,
    fixed: [],
    rejected: [],
    commitSha: null,
    previousHeadSha,
    verify: [],
    message: '',
  };
  if (env.confirm !== 'none') {
    const c = await confirmFindings(
      { ...env, confirmer: env.fixer, threshold: env.confirm },
      ctx,
      round,
      payload.issuesToFix,
    );
    rec.confirmed = c.confirmed;
    rec.unconfirmed = c.unconfirmed;
    const dropped = new Set(c.unconfirmed.map((u) => u.findingId));
    payload.issuesToFix = payload.issuesToFix.filter((f) => !dropped.has(f.id));
    if (payload.issuesToFix.length === 0)
      return done(rec, 'no-changes', 'No finding could be confirmed by a failing test, so nothing was fixed.');
  }
  let feedback = '';
  for (let loop = 1; loop <= Math.max(1, env.gate ? env.gateMaxLoops : 1); loop++) {
    const { outcome, run } = await callFixer(env, { ctx, round, loop, payload, feedback });
    rec.fixer = mergeRuns(rec.fixer, run);
    if (!outcome.ok) return done(rec, 'fixer-failed', `The fixer failed: ${outcome.error}`);
    const accounting = checkAccounting(payload, outcome.value);
    if (accounting) return done(rec, 'fixer-failed', `The fixer's answer is incomplete: ${accounting}`);
    takeResult(rec, outcome.value);

    rec.commitSha = await squashSince(env.git, previousHeadSha, fixCommitMessage(round, rec.fixed, findings), {
      exclude: env.commitExclude,
    });
    if (!rec.commitSha) return done(rec, 'no-changes', 'The fixer changed nothing, so there is nothing to push.');
    const verify = await runVerify(env.verify, {
      cwd: env.workDir,
      env: env.verifyEnv,
      timeoutMs: env.timeoutMs,
      redact: env.redact,
      log: env.log,
      ...(env.sandbox ? { sandbox: env.sandbox } : {}),
    });
    rec.verify = verify.results;
    if (!verify.ok) {
      const failed = verify.results[verify.results.length - 1]!;
      return done(
        rec,
        'verify-failed',
        `Verification failed: \`${failed.command}\` exited with ` +
          `${failed.timedOut ? 'a timeout' : failed.exitCode}. Nothing was pushed.`,
      );
    }
    if (!env.gate) break;
    await env.beforeGate?.();
    const gate = await runGate(env, { ctx, round, loop, payload });
    if (gate.approved) break;
    if (loop >= env.gateMaxLoops)
      return done(
        rec,
        'gate-blocked',
        `The gate reviewer did not approve the fix after ${loop} loop(s): ${gate.feedback}`,
      );
    // The gate's words are an agent's, written after reading the PR: data for the fixer, fenced.
    feedback = fenceAsData('The gate reviewer asked for more changes', gate.feedback);
  }

  // Checks and push are about the commit that was verified, never about HEAD or the tree:
  // a verify command or hook could have moved either since.
  const head = (await env.git(['rev-parse', 'HEAD'])).stdout.trim();
  if (head !== rec.commitSha)
    return done(
      rec,
      'refused',
      `HEAD moved after the fix commit ${rec.commitSha!.slice(0, 7)} was made ` +
        '(a verify command or hook changed it). Nothing was pushed.',
    );
  const changed = await changedPathsInCommit(env.git, previousHeadSha, rec.commitSha!);
  const touched = refusedChanges(changed);
  if (touched.length)
    return done(
      rec,
      'refused',
      `The fix touches paths the action never pushes: ${touched.join(', ')}. Nothing was pushed.`,
    );
  if (env.dryRun) return done(rec, 'dry-run', 'Dry run: the fix was committed locally and verified, but not pushed.');
  if (await env.beforePush())
    env.log('.git/config was changed during the round; the action restored it before pushing');
  const push = await pushHead(env.git, ctx.meta.headRef, rec.commitSha!, env.pushRemote);
  if (!push.ok) {
    const why = push.rejected
      ? 'someone pushed to the branch meanwhile; the fix was not pushed and nothing was lost'
      : push.message;
    return done(rec, 'push-rejected', `The push was rejected: ${why}.`);
  }
  return done(rec, 'pushed', `Pushed ${rec.commitSha!.slice(0, 7)} to ${ctx.meta.headRef}.`);
}

interface FixCall {
  ctx: PrContext;
  round: number;
  /** The gate loop: each has its own context folder. */
  loop: number;
  payload: FixPayload;
  /** What the fixer is told besides the payload (the gate's requested changes), fenced as data. */
  feedback: string;
}

/**
 * Runs the fixer, resuming its session when there is one. When the CLI cannot resume (the
 * session is gone, or the CLI has no sessions), a fresh session gets the earlier rounds'
 * outcome in the prompt instead.
 */
export async function callFixer(env: FixEnv, call: FixCall) {
  const { ctx, round, loop } = call;
  const verifyCommands = env.verify.length ? env.verify.map((c) => `  - \`${c}\``).join('\n') : '  - (none configured)';
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
      data: { ...prContextData(ctx), fixPayload: payloadForAgents(call.payload) },
      values: { priorContext, verifyCommands },
      sessionId,
      schema: fixResultSchema,
    });
    if (await restoreConfig()) env.log('the fixer changed .git/config; the action restored it');
    return result;
  };
  let result = await attempt(env.session.id, call.feedback);
  if (!result.outcome.ok && !result.outcome.answer && env.session.id) {
    env.log(
      `the fixer could not resume session ${env.session.id}; ` +
        'starting a fresh session with the earlier context in the prompt',
    );
    const first = result.run;
    const earlier = env.session.history.join('\n');
    const history = earlier ? fenceAsData('Earlier in this run', earlier) : '';
    result = await attempt(null, [history, call.feedback].filter(Boolean).join('\n\n'));
    result = { ...result, run: mergeRuns(first, result.run) };
  }
  env.session.id = result.outcome.answer?.sessionId ?? (result.outcome.ok ? null : env.session.id);
  if (result.outcome.ok) {
    const v = result.outcome.value;
    const fixed = v.fixedIssues.map((f) => f.findingId).join(', ') || 'nothing';
    const rejected = v.rejectedIssues.map((r) => `${r.findingId} (${r.reason})`).join(', ') || 'nothing';
    env.session.history.push(`- Round ${round}: fixed ${fixed}; rejected ${rejected}.`);
  }
  return result;
}

async function runGate(env: FixEnv, call: Omit<FixCall, 'feedback'>) {
  const { ctx, loop } = call;
  const diff = await env.git(['diff', '--no-ext-diff', '--no-textconv', ctx.meta.headSha, 'HEAD']);
  const { outcome } = await callRole(env, {
    role: 'gate',
    name: 'gate',
    folder: `gate-${loop}`,
    spec: env.gate!,
    ctx,
    round: call.round,
    data: { ...prContextData(ctx), fixPayload: payloadForAgents(call.payload), extra: { 'fix.patch': diff.stdout } },
    schema: gateResultSchema,
  });
  if (!outcome.ok) return { approved: false, feedback: `the gate reviewer failed: ${outcome.error}` };
  env.log(`gate (loop ${loop}): ${outcome.value.decision}`);
  return {
    approved: outcome.value.decision === 'approve',
    feedback: outcome.value.requestedChanges.map((c) => `- ${c}`).join('\n') || outcome.value.summary,
  };
}

function takeResult(rec: FixRoundRecord, r: FixResult): void {
  rec.fixed = r.fixedIssues.map((f) => ({ findingId: f.findingId, description: f.description }));
  rec.rejected = r.rejectedIssues.map((x) => ({ findingId: x.findingId, reason: x.reason }));
}

function mergeRuns(prev: AgentRun | null, next: AgentRun): AgentRun {
  if (!prev) return next;
  const add = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));
  return {
    ...next,
    durationMs: prev.durationMs + next.durationMs,
    usage: {
      inputTokens: add(prev.usage.inputTokens, next.usage.inputTokens),
      outputTokens: add(prev.usage.outputTokens, next.usage.outputTokens),
      costUsd: add(prev.usage.costUsd, next.usage.costUsd),
    },
  };
}

function done(rec: FixRoundRecord, outcome: FixRoundRecord['outcome'], message: string): FixRoundRecord {
  rec.outcome = outcome;
  rec.message = message;
  return rec;
}
