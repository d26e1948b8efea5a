// What the run's agents spent, per round, per role and in total, with the limits.
import type { Spent, Spending } from '../budget/budget.js';
import { usd } from '../budget/budget.js';
import { table } from './format.js';
import { SECTION } from './wording.js';

const count = (n: number) => n.toLocaleString('en-US');

export function spendingSection(s: Spending): string {
  const row = (label: string, x: Spent) => [label, String(x.calls), count(x.tokens), usd(x.costUsd)];
  const rows = [
    ...Object.entries(s.byRound).map(([round, x]) => row(`Round ${round}`, x)),
    ...Object.entries(s.byRole).map(([role, x]) => row(role, x)),
    row('**Total**', s.total),
  ];
  const limits = [
    s.limits.maxTokens !== undefined ? `max-tokens ${count(s.limits.maxTokens)}` : null,
    s.limits.maxCostUsd !== undefined ? `max-cost-usd ${usd(s.limits.maxCostUsd)}` : null,
  ].filter(Boolean);
  const notes = [
    limits.length ? `Limits: ${limits.join(' · ')}.` : 'No budget was set (max-tokens, max-cost-usd).',
    s.unreportedTokens ? `${s.unreportedTokens} call(s) reported no token counts and count as none.` : null,
    s.unpricedCalls ? `${s.unpricedCalls} call(s) had neither a reported cost nor a price and count as $0.` : null,
  ].filter(Boolean);
  return `${SECTION.spending}\n\n${table(['', 'Calls', 'Tokens', 'Cost'], rows)}\n\n${notes.join(' ')}`;
}
