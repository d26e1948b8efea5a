// The run's budget: every agent call of every round counted against `max-tokens`
// (input plus output tokens, as each CLI reports them) and `max-cost-usd` (the cost a CLI
// reports, else its tokens at the price table's rates). No call starts once a limit is reached,
// nor a call that would not fit in its share of what is left, judged by what calls of its role
// have spent so far (of any role when it is the role's first): only Claude Code can stop itself
// at a bound (--max-budget-usd); the other CLIs have no spending switch, only the timeout, so
// the budget must not start what it cannot expect to pay for.
import type { AgentRun } from '../domain/agent-run.js';
import { priceOf, type PriceTable } from './prices.js';

export interface BudgetLimits {
  maxTokens?: number;
  maxCostUsd?: number;
}

/** What was spent, in one slice (a role, a round, or the whole run). */
export interface Spent {
  tokens: number;
  costUsd: number;
  calls: number;
}

export interface Spending {
  total: Spent;
  byRole: Record<string, Spent>;
  byRound: Record<string, Spent>;
  limits: BudgetLimits;
  /** Calls whose CLI reported no tokens (counted as none), or whose cost could not be priced. */
  unreportedTokens: number;
  unpricedCalls: number;
}

/** A call was refused because the budget is spent; the loop ends with status `budget`. */
export class BudgetSpent extends Error {}

/** Calls about to start together: their role, and how many share what is left. */
interface PlannedCalls {
  role: string;
  concurrent: number;
}

export interface Budget {
  /** Throws BudgetSpent when a limit is reached, or when the call would not fit in its share. */
  beforeCall(what: string, planned: PlannedCalls): void;
  /** The cost bound of one of `concurrent` calls starting together; none when no cost limit. */
  callBound(concurrent: number): { maxCostUsd?: number };
  record(round: number, run: AgentRun): void;
  /** Why no further call (or none of the planned ones) may start; null while they may. */
  spentReason(planned?: PlannedCalls): string | null;
  spending(): Spending;
}

const none = (): Spent => ({ tokens: 0, costUsd: 0, calls: 0 });

export function createBudget(limits: BudgetLimits, prices: PriceTable): Budget {
  const total = none();
  const byRole: Record<string, Spent> = {};
  const byRound: Record<string, Spent> = {};
  let unreportedTokens = 0;
  let unpricedCalls = 0;
  const spentReason = (planned?: PlannedCalls): string | null => {
    if (limits.maxTokens !== undefined && total.tokens >= limits.maxTokens)
      return `the budget is spent: ${total.tokens} tokens used of max-tokens ${limits.maxTokens}`;
    if (limits.maxCostUsd !== undefined && total.costUsd >= limits.maxCostUsd)
      return `the budget is spent: ${usd(total.costUsd)} used of max-cost-usd ${usd(limits.maxCostUsd)}`;
    return planned ? wouldNotFit(planned) : null;
  };
  /** A call is expected to spend what calls of its role spent on average, else calls of any role. */
  const expected = (role: string): Spent | null => {
    const seen = byRole[role]?.calls ? byRole[role] : total;
    return seen.calls ? { tokens: seen.tokens / seen.calls, costUsd: seen.costUsd / seen.calls, calls: 1 } : null;
  };
  const wouldNotFit = ({ role, concurrent }: PlannedCalls): string | null => {
    const each = expected(role);
    if (!each) return null;
    const n = Math.max(1, concurrent);
    const calls = n > 1 ? `${n} ${role} calls` : `a ${role} call`;
    if (limits.maxTokens !== undefined && each.tokens * n > limits.maxTokens - total.tokens) {
      const left = limits.maxTokens - total.tokens;
      return (
        `the budget would not cover ${calls}: ${Math.round(each.tokens)} tokens each expected ` +
        `(the average so far), ${left} left of max-tokens ${limits.maxTokens}`
      );
    }
    if (limits.maxCostUsd !== undefined && each.costUsd * n > limits.maxCostUsd - total.costUsd) {
      const left = limits.maxCostUsd - total.costUsd;
      return (
        `the budget would not cover ${calls}: ${usd(each.costUsd)} each expected ` +
        `(the average so far), ${usd(left)} left of max-cost-usd ${usd(limits.maxCostUsd)}`
      );
    }
    return null;
  };
  return {
    beforeCall(what, planned) {
      const why = spentReason(planned);
      if (why) throw new BudgetSpent(`${what} was not started: ${why}`);
    },
    callBound(concurrent) {
      if (limits.maxCostUsd === undefined) return {};
      return { maxCostUsd: Math.max(0, limits.maxCostUsd - total.costUsd) / Math.max(1, concurrent) };
    },
    record(round, run) {
      const { inputTokens, outputTokens, costUsd } = run.usage;
      const known = inputTokens !== null || outputTokens !== null;
      const tokens = (inputTokens ?? 0) + (outputTokens ?? 0);
      if (!known) unreportedTokens++;
      const price = priceOf(prices, run.modelReported ?? run.modelRequested) ?? priceOf(prices, run.modelRequested);
      const priced = price && known ? (inputTokens ?? 0) * price.input + (outputTokens ?? 0) * price.output : null;
      const cost = costUsd ?? (priced === null ? null : priced / 1e6);
      if (cost === null) unpricedCalls++;
      for (const slice of [total, (byRole[run.role] ??= none()), (byRound[String(round)] ??= none())]) {
        slice.tokens += tokens;
        slice.costUsd += cost ?? 0;
        slice.calls++;
      }
    },
    spentReason,
    spending: () => ({ total: { ...total }, byRole, byRound, limits, unreportedTokens, unpricedCalls }),
  };
}

export const usd = (n: number): string => `$${n.toFixed(n < 1 ? 4 : 2)}`;
