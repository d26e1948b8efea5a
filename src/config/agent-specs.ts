// Parsing of `reviewers`, `analyzer`, `fixer` and `gate-reviewer` entries: `model` or `agent:model`,
// optionally followed by fallbacks, `claude:claude-sonnet-4-5 || codex:gpt-5-codex`, tried in order
// when a call fails for quota, rate limit or overload. `||` keeps one reviewer on one line, which
// reads as "this, or else that" in a YAML block and cannot occur in a model name.
// Models may themselves contain `/` and `:` (`opencode:google/gemini-2.5-pro`,
// `qwen2.5-coder:7b`), so a line is split on its first colon only when the text before it is
// a known agent; a near miss of an agent name (`claud:`, `Codex:`) is reported, not taken
// as part of a model.
import { AGENT_KINDS, type AgentKind } from '../agents/types.js';
import { example, fail } from './errors.js';
import { field, splitLines } from './fields.js';
import { LINES } from './file-forms.js';

/** An entry before the input `agent` fills in entries that name only a model. */
export interface AgentRef {
  agent?: AgentKind;
  model: string;
  fallbacks?: AgentRef[];
}

/** The model each agent uses when `reviewers` is not given. */
export const DEFAULT_MODELS: Record<AgentKind, string> = {
  claude: 'claude-sonnet-4-5',
  codex: 'gpt-5-codex',
  opencode: 'google/gemini-2.5-pro',
  gemini: 'gemini-2.5-pro',
  command: 'command',
};

const REVIEWERS_EXAMPLE = 'claude:claude-sonnet-4-5\ncodex:gpt-5-codex';
const SINGLE_EXAMPLE = 'claude:claude-sonnet-4-5';
const FALLBACK_EXAMPLE = 'claude:claude-sonnet-4-5 || codex:gpt-5-codex';
/** Fallbacks one entry may name: each is a full call when the ones before it are out of quota. */
const MAX_FALLBACKS = 3;

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

function parseAgentLine(name: string, line: string, ex: string): AgentRef {
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

/** One entry: a model and its fallbacks, `a || b || c`. */
function parseAgentEntry(name: string, line: string, ex: string): AgentRef {
  const clean = line.replace(/\s+#.*$/, '').trim();
  const parts = clean.split('||').map((p) => p.trim());
  const fallbackEx = example(name, FALLBACK_EXAMPLE);
  if (parts.length > 1 && parts.some((p) => p === '')) {
    fail('has an empty model before or after `||`; name a model on each side', line, fallbackEx);
  }
  if (parts.length - 1 > MAX_FALLBACKS) {
    fail(`names ${parts.length - 1} fallbacks; at most ${MAX_FALLBACKS} are allowed`, line, fallbackEx);
  }
  const [first, ...rest] = parts.map((p) => parseAgentLine(name, p, parts.length > 1 ? FALLBACK_EXAMPLE : ex));
  const seen = new Set<string>();
  for (const ref of [first!, ...rest]) {
    const key = `${ref.agent ?? ''}:${ref.model}`;
    if (seen.has(key)) fail(`names ${ref.model} twice in one entry`, line, fallbackEx);
    seen.add(key);
  }
  return rest.length > 0 ? { ...first!, fallbacks: rest } : first!;
}

export function reviewerRefs(name: string) {
  return field((value) => {
    const lines = splitLines(value);
    if (lines.length < 1 || lines.length > 5) {
      fail(`must list 1 to 5 reviewers, one per line (found ${lines.length})`, value, example(name, REVIEWERS_EXAMPLE));
    }
    return lines.map((line) => parseAgentEntry(name, line, REVIEWERS_EXAMPLE));
  }, LINES);
}

export function singleRef(name: string) {
  return field((value) => {
    const lines = splitLines(value);
    if (lines.length !== 1) {
      fail(`must be exactly one \`agent:model\` entry (found ${lines.length})`, value, example(name, SINGLE_EXAMPLE));
    }
    return parseAgentEntry(name, lines[0]!, SINGLE_EXAMPLE);
  });
}
