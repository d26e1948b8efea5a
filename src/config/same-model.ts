// One model, whichever CLI runs it: `claude:claude-sonnet-4-5` and
// `opencode:anthropic/claude-sonnet-4-5` are the same model, and so is a dated snapshot of it.
// Who checked a fix (review/fix-checks.ts) and the gate's check in roles.ts both ask here, so
// a model can never pass as a second opinion on its own work by changing the CLI it runs in.
import { modelMatches } from '../agents/run-role.js';
import { DEFAULT_MODELS } from './agent-specs.js';

/** An agent kind (`claude`, `command`, …) and the model it runs. */
export interface ModelRef {
  agent: string;
  model: string;
}

/**
 * A `command` agent runs whatever its command line runs and reports no model: with its default
 * label it names no model at all, so it counts as the fixer's own (the safe side) unless the
 * workflow names its model.
 */
const unnamed = (r: ModelRef): boolean => r.agent === 'command' && r.model === DEFAULT_MODELS.command;

export function sameModel(a: ModelRef, b: ModelRef): boolean {
  if (unnamed(a) || unnamed(b)) return true;
  return modelMatches(a.model, b.model) || modelMatches(b.model, a.model);
}

/** `agent:model`, as the reports and the hidden state name a model. */
export const modelName = (r: ModelRef): string => `${r.agent}:${r.model}`;

/** The model an agent call was asked for, as a ModelRef. */
export const runModel = (r: { agent: string; modelRequested: string }): ModelRef => ({
  agent: r.agent,
  model: r.modelRequested,
});

/** The `agent:model` name back as a reference (the agent is the part before the first colon). */
export function modelRef(name: string): ModelRef {
  const i = name.indexOf(':');
  return { agent: name.slice(0, i), model: name.slice(i + 1) };
}
