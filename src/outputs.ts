// The action's outputs, as declared in action.yml (a test keeps the two in step), so the run
// code can set every output on every path, safe defaults first: a run that ends early still
// leaves outputs a later step can read.
import type { Spending } from './budget/budget.js';
import type { RunStatus } from './domain/run-status.js';

export const OUTPUT_NAMES = [
  'status',
  'consensus',
  'rounds',
  'p0',
  'p1',
  'p2',
  'p3',
  'fixed',
  'stuck',
  'unchecked',
  'decisions',
  'head-sha',
  'tokens',
  'cost-usd',
  'report-json',
] as const;
export type OutputName = (typeof OUTPUT_NAMES)[number];

/** What every output holds until the run knows better: a run that ends early has failed. */
export function defaultOutputs(): Record<OutputName, string> {
  return {
    status: 'failed',
    consensus: '',
    rounds: '0',
    p0: '0',
    p1: '0',
    p2: '0',
    p3: '0',
    fixed: '0',
    stuck: '0',
    unchecked: '0',
    decisions: '0',
    'head-sha': '',
    tokens: '0',
    'cost-usd': '0.0000',
    'report-json': '',
  };
}

/** The outputs of what the run's agents spent. */
export function spendingOutputs(s: Spending): Partial<Record<OutputName, string>> {
  return { tokens: String(s.total.tokens), 'cost-usd': s.total.costUsd.toFixed(4) };
}

/**
 * What outputsOf reads of a loop's result (src/loop.ts's LoopResult has it): described here, not
 * imported, so that this leaf module does not depend on the loop that depends on it.
 */
export interface LoopOutcome {
  status: RunStatus;
  rounds: readonly { fix: { outcome: string; fixed: readonly unknown[] } | null }[];
  stuck: readonly unknown[];
  /** Pushed fixes no other model checked (review/fix-checks.ts). */
  unchecked?: readonly unknown[];
  /** Open decisions: questions waiting for the maintainers (review/decisions.ts). */
  decisions?: readonly unknown[];
  headSha: string;
  last: { counts: { p0: number; p1: number; p2: number; p3: number }; consensus: string } | null;
}

/** The outputs a loop's result sets (all but `report-json` and the spending, which the run knows). */
export function outputsOf(r: LoopOutcome): Partial<Record<OutputName, string>> {
  const c = r.last?.counts ?? { p0: 0, p1: 0, p2: 0, p3: 0 };
  return {
    status: r.status,
    // A skipped run reviewed nothing: its round (if any) has no consensus to tell.
    consensus: r.status === 'skipped' ? '' : (r.last?.consensus ?? ''),
    rounds: String(r.rounds.length),
    p0: String(c.p0),
    p1: String(c.p1),
    p2: String(c.p2),
    p3: String(c.p3),
    fixed: String(r.rounds.reduce((n, x) => n + (x.fix?.outcome === 'pushed' ? x.fix.fixed.length : 0), 0)),
    stuck: String(r.stuck.length),
    unchecked: String(r.unchecked?.length ?? 0),
    decisions: String(r.decisions?.length ?? 0),
    'head-sha': r.headSha,
  };
}
