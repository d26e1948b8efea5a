// Before any agent starts: the models of the run whose CLI has no key (its key variables set but
// empty: agents/credentials.ts), and whether a reviewer is left to review with. A run for a fork's
// pull request gets no secrets, so with every reviewer keyless it can review nothing: it says so
// and ends instead of starting CLIs only to hear "not logged in".
import { describeEmpty, emptyCredentials } from '../agents/credentials.js';
import type { AgentSpec } from '../agents/types.js';
import type { ResolvedConfig } from '../config/repo-config.js';

type Roles = Pick<ResolvedConfig, 'reviewers' | 'analyzer' | 'fixer' | 'gateReviewer' | 'agentConfig'>;

const specName = (s: AgentSpec): string => `${s.agent}:${s.model}`;
const chain = (s: AgentSpec): AgentSpec[] => [s, ...(s.fallbacks ?? [])];

/** Each model a role names (fallbacks included) whose key variables are set but empty, with those names. */
export function keylessModels(config: Roles, env: NodeJS.ProcessEnv): Map<string, string[]> {
  const gate = config.gateReviewer ? [config.gateReviewer] : [];
  const specs = [...config.reviewers, config.analyzer, config.fixer, ...gate].flatMap(chain);
  const keyless = new Map<string, string[]>();
  for (const spec of specs) {
    const empty = emptyCredentials(spec, env, config.agentConfig[spec.agent]);
    if (empty) keyless.set(specName(spec), empty);
  }
  return keyless;
}

/**
 * Why no reviewer can review, when every reviewer and each of its fallbacks is keyless
 * ("ANTHROPIC_API_KEY is set but empty"); null when one of them may.
 */
export function noReviewerHasAKey(config: Roles, keyless: ReadonlyMap<string, string[]>): string | null {
  const models = config.reviewers.flatMap(chain);
  if (!models.every((s) => keyless.has(specName(s)))) return null;
  const names = [...new Set(models.flatMap((s) => keyless.get(specName(s))!))];
  return describeEmpty(names);
}

/** One log line for the keyless models of a run that can still review: they are not started. */
export function keylessNote(keyless: ReadonlyMap<string, string[]>): string | null {
  if (keyless.size === 0) return null;
  const each = [...keyless].map(([spec, names]) => `${spec} (${describeEmpty(names)})`);
  return `Not started for want of a key: ${each.join(', ')}; their fallbacks and the other reviewers are.`;
}
