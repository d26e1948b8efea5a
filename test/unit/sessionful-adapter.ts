// An adapter that behaves like a CLI with sessions (fixer and reviewer session tests).
import { AgentError, NO_USAGE, type AgentAdapter, type Invocation } from '../../src/agents/types.js';

/** Knows sessions it created; resuming any other fails like `claude --resume <unknown>`. */
export function sessionfulAdapter(
  calls: Invocation[],
  forget: () => boolean,
  text: (inv: Invocation) => string,
): AgentAdapter {
  const known = new Set<string>();
  let next = 1;
  return {
    kind: 'claude',
    async run(inv) {
      calls.push(inv);
      if (forget()) known.clear();
      if (inv.sessionId && !known.has(inv.sessionId)) {
        throw new AgentError(
          `claude agent (${inv.name}, model m): No conversation found with session ID: ${inv.sessionId}`,
          { agent: 'claude', model: inv.model },
        );
      }
      const sessionId = inv.sessionId ?? `s${next++}`;
      known.add(sessionId);
      return { text: text(inv), model: inv.model, sessionId, usage: NO_USAGE, durationMs: 1 };
    },
  };
}
