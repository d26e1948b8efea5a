// One fix attempt: fixer → one squashed commit → verify → gate (optional,
// looping back to the fixer) → guard → push. Nothing is pushed unless every step passed.
import { modelName, runModel } from '../config/same-model.js';
import type { FixResult } from '../agents/envelope.js';
import { BudgetSpent } from '../budget/budget.js';
import { runVerify } from '../commands/verify.js';
import { registryConfig, SETUP_FINDING_ID } from '../ci/setup-check.js';
import { changedPathsInCommit } from '../git/changes.js';
import { removeReplaceRefsAndGrafts } from '../git/replace-refs.js';
import { secretsInCommit } from '../git/secrets-in-commit.js';
import { squashSince } from '../git/commit.js';
import { putBackAfter } from '../git/put-back.js';
import { pushHead } from '../git/push.js';
import type { PrContext } from '../domain/pull-request.js';
import type { Finding } from '../domain/findings.js';
import { fenceAsData } from '../security/untrusted.js';
import { fixCommitMessage } from './commit-message.js';
import { confirmFindings } from './confirm.js';
import { rerunConfirmedTests, testBlobs } from './confirm-after.js';
import { mergeRuns } from '../roles/agent-runs.js';
import { callFixer } from './fixer.js';
import { runGate } from './gate.js';
import { refusedChanges } from './guard.js';
import { resolveAliases } from './aliases.js';
import { buildFixPayload, checkAccounting } from './payload.js';
import type { FixEnv } from './env.js';
import type { FixRoundRecord } from '../domain/fix.js';

export async function runFixRound(
  env: FixEnv,
  ctx: PrContext,
  round: number,
  findings: Finding[],
): Promise<FixRoundRecord> {
  const previousHeadSha = ctx.meta.headSha;
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
  try {
    return await attemptFix(env, ctx, round, findings, rec);
  } catch (e) {
    // A confirm, fixer or gate call that would have started past the budget: stop here.
    if (e instanceof BudgetSpent) return done(rec, 'budget', `${e.message}. Nothing was pushed.`);
    throw e;
  }
}

async function attemptFix(
  env: FixEnv,
  ctx: PrContext,
  round: number,
  findings: Finding[],
  rec: FixRoundRecord,
): Promise<FixRoundRecord> {
  const previousHeadSha = rec.previousHeadSha;
  const payload = buildFixPayload(ctx.meta.number, round, findings);
  const confirmEnv = { ...env, confirmer: env.fixer, threshold: env.confirm };
  if (env.confirm !== 'none') {
    const c = await confirmFindings(confirmEnv, ctx, round, payload.issuesToFix);
    rec.confirmed = c.confirmed;
    rec.unconfirmed = c.unconfirmed;
    const dropped = new Set(c.unconfirmed.map((u) => u.findingId));
    payload.issuesToFix = payload.issuesToFix.filter((f) => !dropped.has(f.id));
    if (payload.issuesToFix.length === 0)
      return done(rec, 'no-changes', 'No finding could be confirmed by a failing test, so nothing was fixed.');
  }
  // The confirmed tests as they failed: a fix must make them pass without changing them.
  const confirmed = rec.confirmed ?? [];
  const testsBefore = await testBlobs(env.git, 'HEAD', confirmed);
  let feedback = '';
  // The gate, and a confirmed test still failing after the fix, send the fixer back within gate-max-loops.
  const loops = Math.max(1, env.gate || confirmed.length ? env.gateMaxLoops : 1);
  for (let loop = 1; loop <= loops; loop++) {
    const confirmedTests = confirmed.flatMap((c) => (c.testFile ? [c.testFile] : []));
    const { outcome, run } = await callFixer(env, { ctx, round, loop, payload, feedback, confirmedTests });
    rec.fixer = mergeRuns(rec.fixer, run);
    if (!outcome.ok) return done(rec, 'fixer-failed', `The fixer failed: ${outcome.error}`);
    // The model that answered wrote (this part of) the fix: a fallback's, when the fixer's own could not.
    const wrote = modelName(runModel(run));
    rec.fixModels = [...new Set([...(rec.fixModels ?? []), wrote])];
    const answer = resolveAliases(outcome.value, findings);
    const accounting = checkAccounting(payload, answer);
    if (accounting) return done(rec, 'fixer-failed', `The fixer's answer is incomplete: ${accounting}`);
    takeResult(rec, answer);

    // The message goes into the repository's history: the fixer's words in it are redacted too.
    const message = fixCommitMessage(round, rec.fixed, findings, env.redact);
    rec.commitSha = await squashSince(env.git, previousHeadSha, message, {
      exclude: env.commitExclude,
    });
    if (!rec.commitSha) return done(rec, 'no-changes', 'The fixer changed nothing, so there is nothing to push.');
    // `verify: none`: the workflow chose to push unchecked; the fix report says so.
    if (env.verify === 'none') rec.unverified = true;
    // Verify meets a repository without the replace refs and grafts that a command before it
    // planted (the head's test run, an earlier loop's verify, a fixer that could write .git): a
    // verify that makes its own would fail on them, and no tool of the project reads them.
    await removeReplaceRefsAndGrafts(env.git);
    // Verify tests the fix on its own installation: setup again when the fix changed what it reads.
    if (env.beforeVerify)
      await env.beforeVerify((await changedPathsInCommit(env.git, previousHeadSha, rec.commitSha)).paths);
    // What verify leaves in the checkout (a lockfile, coverage/, build output) is put back after
    // it: the next commit (a gate loop's, the next round's) holds only what the fixer changed.
    const verify = await putBackAfter(env.git, 'verify', env.log, () =>
      runVerify(env.verify === 'none' ? [] : [...env.verify], {
        cwd: env.workDir,
        env: env.verifyEnv,
        timeoutMs: env.timeoutMs,
        redact: env.redact,
        log: env.log,
        ...(env.sandbox ? { sandbox: env.sandbox } : {}),
      }),
    );
    rec.verify = verify.results;
    if (!verify.ok) {
      const failed = verify.results[verify.results.length - 1]!;
      return done(
        rec,
        'verify-failed',
        `Verification failed: \`${failed.command}\` exited with ` +
          `${failed.timedOut ? 'a timeout' : failed.exitCode}.${verify.withheld ? ` ${verify.withheld}` : ''} ` +
          'Nothing was pushed.',
      );
    }
    const still = await putBackAfter(env.git, 'the confirmed tests', env.log, () =>
      rerunConfirmedTests(confirmEnv, rec.commitSha!, confirmed, testsBefore),
    );
    if (still.length) {
      const what = still.map((s) => `${s.findingId}: ${s.why}`).join('\n\n');
      if (loop >= loops) {
        const ids = still.map((s) => s.findingId).join(', ');
        const why = `The confirmed test of ${ids} does not pass after the fix. Nothing was pushed.`;
        return done(rec, 'verify-failed', why);
      }
      // Test output is the PR's code speaking: data for the fixer, fenced.
      feedback = fenceAsData('A confirmed test does not pass after your change', what);
      continue;
    }
    if (!env.gate) break;
    await env.beforeGate?.();
    const gate = await runGate(env, { ctx, round, loop, payload });
    if (gate.approved) {
      // A model that wrote none of the fix passed it (roles.ts keeps the gate off the fixer's models).
      if (gate.model) rec.gateApproved = gate.model;
      break;
    }
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
  // The guard reads the commit with replace refs ignored; they go too, so that what it was shown
  // and what any tool reading the checkout sees afterwards cannot differ (push.ts removes them again).
  await removeReplaceRefsAndGrafts(env.git);
  const changed = await changedPathsInCommit(env.git, previousHeadSha, rec.commitSha!);
  // A fix of a failing setup never points the install at another registry (ci/setup-check.ts).
  const registry = findings.some((f) => f.id === SETUP_FINDING_ID) ? registryConfig(changed.paths) : [];
  const touched = [...refusedChanges(changed), ...registry.map((p) => `${p} (registry configuration)`)];
  if (touched.length)
    return done(
      rec,
      'refused',
      `The fix touches paths the action never pushes: ${touched.join(', ')}. Nothing was pushed.`,
    );
  const leaked = env.secretValues
    ? await secretsInCommit(env.git, previousHeadSha, rec.commitSha!, env.secretValues())
    : [];
  if (leaked.length)
    return done(
      rec,
      'refused',
      `The fix commit holds a secret value the run knows, in ${leaked.join(', ')}. Nothing was pushed.`,
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

function takeResult(rec: FixRoundRecord, r: FixResult): void {
  rec.fixed = r.fixedIssues.map((f) => ({ findingId: f.findingId, description: f.description }));
  rec.rejected = r.rejectedIssues.map((x) => ({ findingId: x.findingId, reason: x.reason }));
  rec.deferred = r.deferredIssues.map((x) => ({ findingId: x.findingId, reason: x.reason }));
  rec.handedBack = r.decisionIssues.map((x) => ({ findingId: x.findingId, question: x.question, options: x.options }));
}

function done(rec: FixRoundRecord, outcome: FixRoundRecord['outcome'], message: string): FixRoundRecord {
  rec.outcome = outcome;
  rec.message = message;
  return rec;
}
