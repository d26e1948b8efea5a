// Confirmation (SPEC §6, seeds/004): before a finding at or above `confirm` is fixed, an
// independent agent must reproduce it with a minimal failing test, without fixing it.
// A confirmed test stays (committed locally, squashed into the fix commit as a
// regression test); an unconfirmed finding is marked, its test removed, and not fixed.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { confirmResultSchema } from '../agents/envelope.js';
import { priorityRank } from '../priority.js';
import type { AgentSpec } from '../agents/types.js';
import { commitAll, statusPorcelain, type Git } from '../git/index.js';
import type { PrContext } from '../github/types.js';
import { callRole, type RoleEnv } from '../roles/call.js';
import { prContextData } from '../roles/context-data.js';
import { findingAsData } from '../roles/finding-data.js';
import type { Finding } from '../review/types.js';

export interface ConfirmEnv extends RoleEnv {
  git: Git;
  confirmer: AgentSpec;
  threshold: 'none' | 'P0' | 'P1';
  /** Ids confirmed earlier in this run: not confirmed twice. */
  alreadyConfirmed: Set<string>;
  commitExclude: readonly string[];
  log: (line: string) => void;
}

export interface ConfirmOutcome {
  confirmed: { findingId: string; testFile: string | null }[];
  unconfirmed: { findingId: string; reason: string }[];
}

export function needsConfirmation(f: Finding, threshold: ConfirmEnv['threshold']): boolean {
  if (threshold === 'none') return false;
  return priorityRank(f.priority) <= priorityRank(threshold);
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
      data: { ...prContextData(ctx), extra: { 'finding.json': findingAsData(finding) } },
      schema: confirmResultSchema,
    });
    // "Confirmed" counts only with a test on disk: the agent must have written something.
    const wrote = (await statusPorcelain(env.git)).some((p) => !before.has(p));
    if (outcome.ok && outcome.value.confirmed && wrote) {
      env.alreadyConfirmed.add(finding.id);
      await commitAll(env.git, `test: reproduce ${finding.id}`, { exclude: env.commitExclude });
      out.confirmed.push({ findingId: finding.id, testFile: outcome.value.testFile ?? null });
      env.log(`confirm: ${finding.id} confirmed`);
      continue;
    }
    await discardNewChanges(env.git, env.workDir, before);
    const reason = !outcome.ok
      ? `the confirm agent failed: ${outcome.error}`
      : outcome.value.confirmed
        ? 'the confirm agent said it reproduced the finding but wrote no test'
        : outcome.value.explanation || 'no failing test reproduces it';
    out.unconfirmed.push({ findingId: finding.id, reason });
    env.log(`confirm: ${finding.id} not confirmed (${reason})`);
  }
  return out;
}

/** Puts back every path the confirm agent changed, leaving earlier changes alone. */
async function discardNewChanges(git: Git, workDir: string, before: Set<string>): Promise<void> {
  for (const p of await statusPorcelain(git)) {
    if (before.has(p)) continue;
    const tracked = await git(['cat-file', '-e', `HEAD:${p}`], { allowFail: true });
    if (tracked.code === 0) await git(['checkout', 'HEAD', '--', p]);
    else await rm(path.join(workDir, p), { recursive: true, force: true });
  }
}
