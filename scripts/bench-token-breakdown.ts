// Where a token run's input goes: for each role, round and CLI, the characters of one request
// that are tool definitions, system text and conversation (the fake model server's promptParts).
import { promptParts, type RecordedRequest } from '../test/fakes/model-server/index.js';

const CLI_OF_PROTOCOL: Record<RecordedRequest['protocol'], string> = {
  anthropic: 'Claude Code',
  gemini: 'Gemini CLI',
  responses: 'Codex',
  chat: 'OpenCode',
};

/**
 * One row per role (as `label` names it: "reviewer round 1", "fixer", …) and CLI: the mean
 * characters per request of each part, and the input tokens they add up to.
 */
export function breakdownRows(
  requests: RecordedRequest[],
  label: (r: RecordedRequest) => string,
): [string, string, string][] {
  const groups = new Map<string, { n: number; tools: number; system: number; conversation: number; tokens: number }>();
  for (const r of requests) {
    const key = `${label(r)}, ${CLI_OF_PROTOCOL[r.protocol]}`;
    const g = groups.get(key) ?? { n: 0, tools: 0, system: 0, conversation: 0, tokens: 0 };
    const p = promptParts(r.body);
    g.n++;
    g.tools += p.tools;
    g.system += p.system;
    g.conversation += p.conversation;
    g.tokens += r.tokens?.input ?? 0;
    groups.set(key, g);
  }
  const k = (n: number) => Math.round(n).toLocaleString('en-US');
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, g]) => [
      `  ${key}`,
      `${k(g.tokens)} tokens`,
      `${g.n} requests; chars per request: tools ${k(g.tools / g.n)}, system ${k(g.system / g.n)}, ` +
        `conversation ${k(g.conversation / g.n)}`,
    ]);
}
