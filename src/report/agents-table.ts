// The table of agent runs (reviewers, analyzer, fixer): model asked for and model
// that answered, status (with the models a fallback answered for, and why), time, tokens and cost.
import type { AgentRun } from '../domain/agent-run.js';
import { modelMatches } from '../agents/run-role.js';
import { code, dash, fmtCost, fmtDuration, fmtInt, inline, table } from './format.js';
import { AGENT_STATUS_LABEL, NOTE } from './wording.js';

export function agentsTable(agents: AgentRun[]): string {
  const rows = agents.map((a) => [
    inline(a.name, 60),
    inline(a.agent, 40),
    code(a.modelRequested),
    modelReported(a),
    status(a),
    fmtDuration(a.durationMs),
    a.usage.inputTokens === null && a.usage.outputTokens === null
      ? dash
      : `${fmtInt(a.usage.inputTokens)} / ${fmtInt(a.usage.outputTokens)}`,
    fmtCost(a.usage.costUsd),
  ]);
  return table(
    ['Name', 'Agent', 'Model requested', 'Model reported', 'Status', 'Time', 'Tokens in / out', 'Cost'],
    rows,
  );
}

/** The status, the error of a failed run, and the models a fallback answered for and why. */
function status(a: AgentRun): string {
  const failed = a.status === 'failed' && a.error;
  const label = failed ? `${AGENT_STATUS_LABEL.failed} ${inline(a.error!, 200)}` : AGENT_STATUS_LABEL[a.status];
  if (!a.fellBackFrom?.length) return label;
  const why = a.fellBackFrom.map((f) => `${code(f.spec)}: ${f.kind} (${inline(f.detail, 120)})`).join('; ');
  return `${label} ${NOTE.fallback} ${why}`;
}

function modelReported(a: AgentRun): string {
  if (a.modelReported === null) return `_${NOTE.modelNotReported}_`;
  // The same rule the agents apply, so the flag agrees with the role's status.
  const mismatch = !modelMatches(a.modelRequested, a.modelReported);
  return `${code(a.modelReported)}${mismatch ? ` ${NOTE.modelMismatch}` : ''}`;
}
