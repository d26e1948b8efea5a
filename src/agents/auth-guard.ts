// A CLI that cannot authenticate is not started to find that out again. Before a call: a CLI whose
// key variables are set but empty (credentials.ts) is not started at all. After a call: the first
// failure to authenticate of a CLI (its adapter marks it) stands for the rest of the run, for that
// CLI (for OpenCode, that provider), so later rounds, the other reviewers and the fixer are not
// started against the same refusal. Either way the call fails as not authenticated, so the role's
// fallback is asked (roles/fallback.ts) and the report says why.
import { describeEmpty, EMPTY_SECRET_WHY, emptyCredentials } from './credentials.js';
import { failureDetail } from './failure.js';
import { AgentError, type AgentAdapter, type AgentSpec, type Invocation } from './types.js';

/** What one key unlocks: a CLI, or for OpenCode a provider of it. */
function keyScope(spec: AgentSpec): string {
  if (spec.agent !== 'opencode' || !spec.model.includes('/')) return spec.agent;
  return `${spec.agent} provider ${spec.model.slice(0, spec.model.indexOf('/'))}`;
}

function notStarted(adapter: AgentAdapter, inv: Invocation, why: string): AgentError {
  const message = `${adapter.kind} agent (${inv.name}, model ${inv.model}) was not started: ${why}`;
  return new AgentError(message, { agent: adapter.kind, model: inv.model, unauthenticated: true });
}

export function guardAuthentication(
  adapter: AgentAdapter,
  env: NodeJS.ProcessEnv,
  agentConfig?: Record<string, unknown>,
): AgentAdapter {
  const refused = new Map<string, string>();
  return {
    kind: adapter.kind,
    async run(inv) {
      const spec = { agent: adapter.kind, model: inv.model };
      const empty = emptyCredentials(spec, env, agentConfig);
      if (empty) throw notStarted(adapter, inv, `${describeEmpty(empty)} (${EMPTY_SECRET_WHY})`);
      const scope = keyScope(spec);
      const earlier = refused.get(scope);
      if (earlier)
        throw notStarted(adapter, inv, `an earlier ${scope} call of this run could not authenticate: ${earlier}`);
      try {
        return await adapter.run(inv);
      } catch (e) {
        if (e instanceof AgentError && e.detail.unauthenticated && !refused.has(scope)) {
          refused.set(scope, failureDetail(e.message));
        }
        throw e;
      }
    },
  };
}
