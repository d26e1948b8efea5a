// Confirmation: before a finding at or above `confirm` is fixed, an
// independent agent must reproduce it with a minimal failing test, without fixing it. The action
// does not take its word for it: the agent names the command that runs its test, and
// the action runs it on the PR head with only test files added, where it must fail; after the fix
// it must pass (fix-round.ts). A confirmed test stays (committed locally, squashed into the fix
// commit as a regression test); an unconfirmed finding is marked, its test removed, and not fixed.
import { confirmResultSchema, type ConfirmResult } from '../agents/envelope.js';
import type { RoleOutcome } from '../agents/run-role.js';
import { outputTail } from '../commands/output-tail.js';
import { runShell } from '../commands/shell.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { priorityRank } from '../domain/priority.js';
import type { AgentSpec } from '../agents/types.js';
import { commitAll, statusPorcelain, type Git } from '../git/index.js';
import { putBackSince } from '../git/put-back.js';
import type { PrContext } from '../domain/pull-request.js';
import { callRole, type RoleEnv } from '../roles/call.js';
import { prContextData } from '../roles/context-data.js';
import { findingAsData, prFilePaths } from '../roles/finding-data.js';
import type { Finding } from '../domain/findings.js';
import { isTestFile } from './test-files.js';
import type { ConfirmedFinding } from '../domain/fix.js';

export interface ConfirmEnv extends RoleEnv {
  git: Git;
  confirmer: AgentSpec;
  threshold: 'none' | 'P0' | 'P1';
  /** Ids confirmed earlier in this run, or in an earlier run whose fix was pushed: not confirmed twice. */
  alreadyConfirmed: Set<string>;
  commitExclude: readonly string[];
  log: (line: string) => void;
  /** How the confirmer's test command runs: like `verify` (token-free environment, sandbox user). */
  verifyEnv: NodeJS.ProcessEnv;
  sandbox?: Sandbox;
  redact: (text: string) => string;
}

export interface ConfirmOutcome {
  confirmed: ConfirmedFinding[];
  unconfirmed: { findingId: string; reason: string }[];
}

/** Lines and characters of a test's output kept as evidence. */
const EVIDENCE_LINES = 20;
const EVIDENCE_CHARS = 2_000;

export function needsConfirmation(f: Finding, threshold: ConfirmEnv['threshold']): boolean {
  // A failing CI check is its own evidence: its job failed on the head.
  if (threshold === 'none' || f.category === 'ci') return false;
  return priorityRank(f.priority) <= priorityRank(threshold);
}

/** Runs a confirmer's test command the way `verify` commands run. */
export function runTest(env: ConfirmEnv, command: string) {
  return runShell(command, { cwd: env.workDir, env: env.verifyEnv, timeoutMs: env.timeoutMs, ...sandboxOf(env) });
}

const sandboxOf = (env: ConfirmEnv) => (env.sandbox ? { sandbox: env.sandbox } : {});

/** The tail of a test's output, secrets redacted, as evidence in a report. */
export function evidence(env: ConfirmEnv, output: string): string {
  return env.redact(outputTail(output, EVIDENCE_LINES, EVIDENCE_CHARS));
}

export async function confirmFindings(
  env: ConfirmEnv,
  ctx: PrContext,
  round: number,
  issues: Finding[],
): Promise<ConfirmOutcome> {
  const out: ConfirmOutcome = { confirmed: [], unconfirmed: [] };
  for (const finding of issues.filter((f) => needsConfirmation(f, env.threshold) && !env.alreadyConfirmed.has(f.id))) {
    const before = new Set(await statusPorcelain(env.git));
    const { outcome } = await callRole(env, {
      role: 'confirm',
      name: 'confirm',
      folder: `confirm-${finding.id}`,
      spec: env.confirmer,
      ctx,
      round,
      data: { ...prContextData(ctx), extra: { 'finding.json': findingAsData(finding, prFilePaths(ctx.files)) } },
      schema: confirmResultSchema,
    });
    const written = (await statusPorcelain(env.git)).filter((p) => !before.has(p));
    const verdict = await judge(env, outcome, written);
    if (typeof verdict !== 'string') {
      env.alreadyConfirmed.add(finding.id);
      // Only the confirmer's test files are committed: what running the test wrote (coverage,
      // caches, or a command that edits code) is put back first.
      await putBackSince(env.git, new Set([...before, ...written]));
      await commitAll(env.git, `test: reproduce ${finding.id}`, { exclude: env.commitExclude });
      out.confirmed.push({ findingId: finding.id, ...verdict });
      env.log(`confirm: ${finding.id} confirmed: \`${verdict.command}\` fails on the PR head`);
      continue;
    }
    await putBackSince(env.git, before);
    out.unconfirmed.push({ findingId: finding.id, reason: verdict });
    env.log(`confirm: ${finding.id} not confirmed (${verdict})`);
  }
  return out;
}

/**
 * The action's own check of a confirmer's claim: only test files changed, a command given, and
 * that command failing on the PR head with the test added. A reason when any of it is missing.
 */
async function judge(
  env: ConfirmEnv,
  outcome: RoleOutcome<ConfirmResult>,
  written: string[],
): Promise<string | Omit<ConfirmedFinding, 'findingId'>> {
  if (!outcome.ok) return `the confirm agent failed: ${outcome.error}`;
  const v = outcome.value;
  if (!v.confirmed) return v.explanation || 'no failing test reproduces it';
  if (written.length === 0) return 'the confirm agent said it reproduced the finding but wrote no test';
  const other = written.filter((p) => !isTestFile(p));
  if (other.length) {
    const which = other.slice(0, 3).join(', ');
    return `the confirmation is void: the confirm agent changed ${which}, which is not a test file`;
  }
  const command = v.testCommand?.trim();
  if (!command) return 'the confirm agent claimed a failing test but gave no command that runs it (testCommand)';
  const run = await runTest(env, command);
  if (run.timedOut) return `its test command \`${command}\` did not finish in time on the PR head`;
  // The shell's "cannot run" and "not found" are no test failing.
  if (run.exitCode === 126 || run.exitCode === 127) {
    return `its test command \`${command}\` could not run (exit ${run.exitCode}): nothing was reproduced`;
  }
  if (run.exitCode === 0) {
    return (
      `not reproduced: its test (\`${command}\`) passes on the PR head, ` +
      "so the reviewer's claim could not be reproduced"
    );
  }
  // The test file the report names is one the confirmer wrote, whatever it claims.
  const testFile = v.testFile && written.includes(v.testFile) ? v.testFile : (written[0] ?? null);
  const output = evidence(env, run.stdout + run.stderr);
  return { testFile, files: written, testName: v.testName ?? null, command, failedOutput: output, passesAfter: null };
}
