// Who checked each pushed fix. A fix counts as checked only when a reviewer on a model that did
// not write it (same-model.ts: the same model through another CLI is the same model) answered and
// found nothing left of it; a model judging its own fix is no second opinion. When the panel has no
// other model the fix is "checked only by the fixer's model"; when the other models' reviewers all
// failed it stays unchecked: never sent back to the fixer, checked again by the next round, and the
// run's hand-off (label, ready for review) waits for it. Pure.
import type { AgentRun } from '../domain/agent-run.js';
import type { Finding, FixCheck } from '../domain/findings.js';
import { modelName, modelRef, runModel, sameModel, type ModelRef } from '../config/same-model.js';
import type { EarlierFinding } from './earlier.js';
import { sameProblem } from './similarity.js';

/** A reviewer's run as the model that answered (or would have): its last attempt's. */

/** Whether `reviewer` runs one of the models that wrote a fix. */
export function wroteFix(fixedBy: readonly string[], reviewer: ModelRef): boolean {
  return fixedBy.some((m) => sameModel(modelRef(m), reviewer));
}

/**
 * What this round's reviewers made of the fixes still waiting for a check (`pending`, fate
 * `fixed`): a fix reported again is `came-back` (the round lists it as stuck); else it is checked
 * by each reviewer on another model that answered.
 */
export function checkFixes(
  pending: readonly EarlierFinding[],
  agents: readonly AgentRun[],
  stuck: readonly Finding[],
  renames?: ReadonlyMap<string, string>,
): FixCheck[] {
  const reviewers = agents.filter((a) => a.role === 'reviewer');
  const opts = { useLines: false, ...(renames ? { renames } : {}) };
  return pending.map((p): FixCheck => {
    const fixModels = p.fixedBy ?? [];
    const base = {
      finding: { id: p.id, category: p.category, file: p.file, title: p.title },
      fixedIn: p.fixedIn ?? '',
      fixModels,
    };
    const back = stuck.some(
      (s) => [s.id, ...(s.aliases ?? [])].includes(p.id) || sameProblem({ ...p, line: null }, s, opts),
    );
    if (back) return { ...base, state: 'came-back', by: [] };
    const others = reviewers.filter((r) => !wroteFix(fixModels, runModel(r)));
    const who = (r: AgentRun) => `${r.name} (${modelName(runModel(r))})`;
    const answered = others.filter((r) => r.status === 'ok');
    if (answered.length > 0) return { ...base, state: 'checked', by: answered.map(who) };
    if (others.length === 0) {
      const own = reviewers.filter((r) => r.status === 'ok').map(who);
      return { ...base, state: 'own-model', by: own };
    }
    return { ...base, state: 'unchecked', by: others.map((r) => `${who(r)}: ${r.error ?? r.status}`) };
  });
}

/** The fixes still to check after a round: those it left unchecked, as the next round's reviewers get them. */
export function stillUnchecked(pending: readonly EarlierFinding[], checks: readonly FixCheck[]): EarlierFinding[] {
  const open = new Set(checks.filter((c) => c.state === 'unchecked').map((c) => c.finding.id));
  return pending.filter((p) => open.has(p.id));
}
