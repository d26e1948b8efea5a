// Parsing of `reviewers`, `analyzer`, `fixer` and `gate-reviewer` entries: `model` or `agent:model`.
// Models may themselves contain `/` and `:` (`opencode:google/gemini-2.5-pro`,
// `qwen2.5-coder:7b`), so a line is split on its first colon only when the text before it is
// a known agent; a near miss of an agent name (`claud:`, `Codex:`) is reported, not taken
// as part of a model.
import { AGENT_KINDS, type AgentKind } from '../agents/types.js';
import { example, fail } from './errors.js';
import { field, splitLines } from './fields.js';

/** An entry before the input `agent` fills in entries that name only a model. */
export interface AgentRef {
  agent?: AgentKind;
  model: string;
}

/** The model each agent uses when `reviewers` is not given. */
export const DEFAULT_MODELS: Record<AgentKind, string> = {
  claude: 'claude-sonnet-4-5',
  codex: 'gpt-5-codex',
  opencode: 'google/gemini-2.5-pro',
  gemini: 'gemini-2.5-pro',
  command: 'command',
};

export const REVIEWERS_EXAMPLE = 'claude:claude-sonnet-4-5\ncodex:gpt-5-codex';
const SINGLE_EXAMPLE = 'claude:claude-sonnet-4-5';

export function isAgentKind(value: unknown): value is AgentKind {
  return typeof value === 'string' && (AGENT_KINDS as readonly string[]).includes(value);
}

/** Edit distance at most one (case-insensitive): how typos of agent names are told from models. */
function nearMiss(a: string, b: string): boolean {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return x.slice(i + 1) === y.slice(i + 1) || x.slice(i) === y.slice(i + 1) || x.slice(i + 1) === y.slice(i);
}

export function parseAgentLine(name: string, line: string, ex: string): AgentRef {
  const clean = line.replace(/\s+#.*$/, '').trim();
  const colon = /^([A-Za-z][\w-]*):(.*)$/.exec(clean);
  let ref: AgentRef = { model: clean };
  if (colon && isAgentKind(colon[1])) {
    ref = { agent: colon[1], model: colon[2]!.trim() };
  } else if (colon && AGENT_KINDS.some((kind) => nearMiss(colon[1]!, kind))) {
    fail(`names an unknown agent "${colon[1]}" (known agents: ${AGENT_KINDS.join(', ')})`, line, example(name, ex));
  }
  // Any label passes for the command agent (it reports no model); spaces never do, since one
  // entry is one word on its line.
  if (ref.model === '' || /\s/.test(ref.model)) {
    fail('must be `model` or `agent:model`, one entry per line, with no spaces in the model', line, example(name, ex));
  }
  return ref;
}

export function reviewerRefs(name: string) {
  return field((value) => {
    const lines = splitLines(value);
    if (lines.length < 1 || lines.length > 5) {
      fail(`must list 1 to 5 reviewers, one per line (found ${lines.length})`, value, example(name, REVIEWERS_EXAMPLE));
    }
    return lines.map((line) => parseAgentLine(name, line, REVIEWERS_EXAMPLE));
  });
}

export function singleRef(name: string) {
  return field((value) => {
    const lines = splitLines(value);
    if (lines.length !== 1) {
      fail(`must be exactly one \`agent:model\` entry (found ${lines.length})`, value, example(name, SINGLE_EXAMPLE));
    }
    return parseAgentLine(name, lines[0]!, SINGLE_EXAMPLE);
  });
}
