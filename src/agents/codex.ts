// Codex CLI adapter: `codex exec --json -` (prompt on stdin), or
// `codex exec resume <thread id> -` for a role's later rounds.
// Its flags, events and config keys are pinned by the adapter tests against the real binary
// (test/agents/codex.test.ts).
//
// Permissions come from Codex's own sandbox: read-only roles run with
// sandbox_mode "read-only" (Codex still offers apply_patch, but the sandbox
// refuses the write and says so to the model); the fixer runs "workspace-write"
// (edits and commands inside the checkout, no network). Both are passed with -c,
// which wins over config.toml, so agent-config cannot loosen them. exec never
// prompts for approval. The checkout is never a trusted project, so its .codex/
// (config, hooks, exec-policy rules) is not loaded. That sandbox is Codex's own
// bubblewrap, whatever bwrap the runner has (codex-bubblewrap.ts).
//
// Model: the JSON events do not name it; Codex records the model it sent in its
// session rollout file (`turn_context.model`), which is read here.
import path from 'node:path';
import { entriesBelow, readRegularFile, writeBelow } from '../files/untrusted-files.js';
import {
  adapterLog,
  cliEnv,
  cliError,
  unauthenticatedIf,
  deepMerge,
  isObject,
  isReadOnly,
  jsonLines,
  num,
  processFailure,
  runCli,
  type CliAdapterOptions,
  type JsonObject,
} from './cli-common.js';
import type { AgentAdapter, AgentAnswer, Invocation } from './types.js';
import { codexBubblewrapFolder, withCodexBubblewrap } from './codex-bubblewrap.js';

/**
 * Offline and quiet: no update check, analytics, feedback upload or plugin sync. And no tool or
 * text that no role uses, sent with every request otherwise (0.169.0): web search, goals,
 * sub-agents (and the tool_search that finds them), the image viewer, questions to the user, the
 * skills list and the personality section, about 12,000 characters. Every role keeps
 * exec_command, write_stdin and apply_patch; the sandbox decides what they may change.
 */
const BASE_CONFIG: JsonObject = {
  check_for_update_on_startup: false,
  analytics: { enabled: false },
  feedback: { enabled: false },
  features: { plugins: false, goals: false, multi_agent: false, view_image: false },
  web_search: 'disabled',
  tools: { experimental_request_user_input: { enabled: false } },
  skills: { include_instructions: false },
  personality: 'none',
};

/**
 * agent-config without its `projects` table: nothing may mark the checkout trusted. Codex
 * loads a project's .codex/ only for a trusted project (developers.openai.com/codex/config-basic):
 * its config.toml (MCP servers Codex starts, hooks), hooks.json and rules/, whose
 * `decision = "allow"` runs a matching command outside the read-only sandbox (0.169.0, seen in
 * test/agents/hostile-config.test.ts with the checkout trusted). A checkout with no entry is
 * not trusted, and Codex still reads its AGENTS.md; an explicit "untrusted" would drop that too.
 */
function withoutProjectTrust(agentConfig: JsonObject): JsonObject {
  const rest = { ...agentConfig };
  delete rest.projects;
  return rest;
}

export function createCodexAdapter(opts: CliAdapterOptions = {}): AgentAdapter {
  // Found once: the CLI's install does not move during a run.
  let bubblewrap: string | null | undefined;
  return {
    kind: 'codex',
    run: (inv) => runCodex(opts, inv, (bubblewrap ??= opts.binPath ? codexBubblewrapFolder(opts.binPath) : null)),
  };
}

function codexArgs(inv: Invocation): string[] {
  const sandbox = isReadOnly(inv.role) ? 'read-only' : 'workspace-write';
  const common = ['--json', '--skip-git-repo-check', '-m', inv.model];
  common.push('-c', `sandbox_mode="${sandbox}"`, '-c', 'approval_policy="never"');
  // `-c sandbox_mode` applies to the resumed thread too: a reviewer resumes read-only.
  const resume = inv.sessionId;
  // `-`: read the prompt from stdin.
  return resume ? ['exec', 'resume', ...common, inv.sessionId!, '-'] : ['exec', ...common, '-'];
}

async function runCodex(opts: CliAdapterOptions, inv: Invocation, bubblewrap: string | null): Promise<AgentAnswer> {
  const home = path.join(inv.stateDir, 'codex');
  const log = adapterLog('codex', opts, inv);
  // The state folder was the previous call's: what it left at these names is replaced, never followed.
  const config = deepMerge(BASE_CONFIG, withoutProjectTrust(opts.agentConfig ?? {}));
  await writeBelow(inv.stateDir, 'codex/config.toml', toToml(config), { mode: 0o600, log });
  const env = withCodexBubblewrap(cliEnv(opts, inv, { CODEX_HOME: home }), bubblewrap);
  // A resumed thread's `turn.completed` usage is the thread's running total (0.169.0; the
  // rollout's total_token_usage): what the earlier calls spent is taken off.
  const before = inv.sessionId ? (await readRollout(home, inv.sessionId, log)).totals : { input: 0, output: 0 };
  const res = await runCli('codex', opts, inv, codexArgs(inv), env, inv.prompt);
  const events = jsonLines(res.stdout);
  const failure = processFailure(res, inv.timeoutMs);
  if (res.timedOut) throw cliError('codex', inv, failure!, res);
  const errors = events.flatMap(eventError);
  const threadId = events.map((e) => e.thread_id).find((t): t is string => typeof t === 'string') ?? null;
  const turns = events.filter((e) => e.type === 'turn.completed');
  if (failure || turns.length === 0) {
    const cause =
      errors.length > 0 ? `reported an error: ${errors.at(-1)}` : `${failure ?? 'exited 0'} without finishing a turn`;
    const auth = /api key|auth|401|missing environment variable/i.test(cause);
    const hint = auth ? " (not authenticated: set OPENAI_API_KEY or the provider's env_key)" : '';
    throw unauthenticatedIf(auth, cliError('codex', inv, `${cause}${hint}`, res));
  }
  const messages = events
    .filter((e) => e.type === 'item.completed' && isObject(e.item) && e.item.type === 'agent_message')
    .map((e) => String((e.item as JsonObject).text ?? ''));
  const usage = turns.map((t) => (isObject(t.usage) ? t.usage : {}));
  const total = (key: string, earlier: number): number | null =>
    usage.some((u) => num(u[key]) !== null)
      ? Math.max(0, usage.reduce((a, u) => a + (num(u[key]) ?? 0), 0) - earlier)
      : null;
  return {
    // Every agent message: the envelope may sit in an earlier one than the last.
    text: messages.join('\n\n'),
    model: threadId ? (await readRollout(home, threadId, log)).model : null,
    sessionId: threadId,
    // OpenAI counts cached input inside input_tokens. Codex reports no cost.
    usage: {
      inputTokens: total('input_tokens', before.input),
      outputTokens: total('output_tokens', before.output),
      costUsd: null,
    },
    durationMs: res.durationMs,
  };
}

/** Messages of `error` events, `turn.failed` and error items (unknown model, sandbox, …). */
function eventError(e: JsonObject): string[] {
  if (e.type === 'error' && typeof e.message === 'string') return [e.message];
  if (e.type === 'turn.failed' && isObject(e.error)) return [String(e.error.message)];
  return [];
}

interface Rollout {
  /** `turn_context.model` of the last turn. */
  model: string | null;
  /** The thread's running token totals (the last `token_count` event's `total_token_usage`). */
  totals: { input: number; output: number };
}

/** A long session's rollout holds every message and tool output; past this it is not read. */
const MAX_ROLLOUT_BYTES = 64 * 1024 * 1024;
/** Codex keeps a file per session in sessions/YYYY/MM/DD/; past this many entries the rest is not looked at. */
const MAX_SESSION_ENTRIES = 10_000;

/**
 * What `$CODEX_HOME/sessions/**\/rollout-*-<thread>.jsonl` says of a thread. The folder is the
 * call's: a rollout that is not a regular file of bounded size is not read, and the log says so.
 */
async function readRollout(home: string, threadId: string, log: (line: string) => void): Promise<Rollout> {
  const rollout: Rollout = { model: null, totals: { input: 0, output: 0 } };
  const sessions = path.join(home, 'sessions');
  const found = await entriesBelow(sessions, MAX_SESSION_ENTRIES);
  if (found.refused) log(`${sessions} not read (${found.refused})`);
  if (found.cut) log(`${sessions}: only the first ${MAX_SESSION_ENTRIES} entries were looked at`);
  // Names start with a timestamp: sorted, the last one read is the newest.
  for (const f of found.files.filter((f) => f.endsWith(`-${threadId}.jsonl`))) {
    const read = await readRegularFile(path.join(sessions, f), MAX_ROLLOUT_BYTES);
    if (!read) continue;
    if ('refused' in read) {
      log(`rollout ${f} not read (${read.refused})`);
      continue;
    }
    for (const rec of jsonLines(read.bytes.toString('utf8'))) {
      const p = isObject(rec.payload) ? rec.payload : {};
      if (rec.type === 'turn_context' && typeof p.model === 'string') rollout.model = p.model;
      const info = p.type === 'token_count' && isObject(p.info) ? p.info : null;
      if (rec.type === 'event_msg' && info && isObject(info.total_token_usage)) {
        const t = info.total_token_usage;
        rollout.totals = { input: num(t.input_tokens) ?? 0, output: num(t.output_tokens) ?? 0 };
      }
    }
  }
  return rollout;
}

// TOML for Codex's config.toml: enough for what agent-config can hold (tables,
// strings, numbers, booleans, arrays). Basic strings share JSON's escapes, except
// that TOML also wants DEL escaped. null/undefined values are left out.
const tomlKey = (k: string): string => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));

function tomlValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v).replace(/\x7f/g, '\\u007f');
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`TOML cannot hold the number ${v}`);
    return String(v);
  }
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v))
    return `[${v
      .filter((x) => x != null)
      .map(tomlValue)
      .join(', ')}]`;
  if (isObject(v)) {
    const items = Object.entries(v).filter(([, x]) => x != null);
    return `{ ${items.map(([k, x]) => `${tomlKey(k)} = ${tomlValue(x)}`).join(', ')} }`;
  }
  throw new Error(`TOML cannot hold a ${typeof v}`);
}

/** `obj` as a TOML document: plain keys first, then one [table] per nested object. */
export function toToml(obj: JsonObject, prefix: string[] = []): string {
  const entries = Object.entries(obj).filter(([, v]) => v != null);
  const lines = entries.filter(([, v]) => !isObject(v)).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`);
  // A table holding only sub-tables needs no header of its own.
  let out = prefix.length > 0 && lines.length > 0 ? `[${prefix.map(tomlKey).join('.')}]\n` : '';
  out += lines.map((l) => `${l}\n`).join('');
  for (const [k, v] of entries) {
    if (isObject(v)) out += `${out ? '\n' : ''}${toToml(v, [...prefix, k])}`;
  }
  return out;
}
