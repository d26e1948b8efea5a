// Gemini CLI adapter: `gemini -o json -m <model>`, prompt on stdin.
// Its flags, settings and output shape are pinned by the adapter tests against the real binary
// (test/agents/gemini.test.ts).
//
// Permissions come from Gemini's approval modes and policy engine: read-only
// roles run in the `default` approval mode, where headless Gemini removes every
// write and shell tool from the model's tool list, plus an admin-tier policy that
// denies them whatever the settings say, and get only the read tools registered
// (`tools.core`, see READ_TOOLS); the fixer runs `auto_edit`
// (write_file, replace) plus a policy file that allows run_shell_command, and
// nothing else is switched on. Never `--yolo`. The checkout's .gemini/settings.json
// and .env files are not loaded (see UNTRUSTED_CHECKOUT).
//
// Model: reported. The `stats.models` keys are the models the CLI called.
import path from 'node:path';
import { writeBelow } from '../files/untrusted-files.js';
import {
  adapterLog,
  cliEnv,
  cliError,
  unauthenticatedIf,
  deepMerge,
  isObject,
  isReadOnly,
  num,
  processFailure,
  runCli,
  sumOrNull,
} from './cli-common.js';
import type { CliAdapterOptions, JsonObject } from './cli-common.js';
import { modelMatches } from './run-role.js';
import type { AgentAdapter, AgentAnswer, Invocation } from './types.js';

/**
 * Read-only roles: the write and shell tools denied at the admin tier, which
 * outranks user settings, so agent-config (`tools.allowed`, which 0.61.0 turns
 * into allow rules) cannot give them back.
 */
const READ_ONLY_POLICY = `[[rule]]
toolName = ["write_file", "replace", "run_shell_command", "web_fetch", "activate_skill"]
decision = "deny"
priority = 999
`;

/** Run commands without asking, in auto_edit mode only (the fixer's). */
const FIXER_POLICY = `[[rule]]
toolName = "run_shell_command"
decision = "allow"
priority = 100
modes = ["autoEdit"]
`;

export function createGeminiAdapter(opts: CliAdapterOptions = {}): AgentAdapter {
  return { kind: 'gemini', run: (inv) => runGemini(opts, inv) };
}

function baseSettings(env: NodeJS.ProcessEnv): JsonObject {
  // With GOOGLE_GEMINI_BASE_URL set, 0.61.0 guesses auth type "gateway", which
  // headless mode rejects (exit 41); naming the type keeps the base URL working.
  const vertex = /^(1|true)$/i.test(env.GOOGLE_GENAI_USE_VERTEXAI ?? '');
  return {
    security: { auth: { selectedType: vertex ? 'vertex-ai' : 'gemini-api-key' } },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
  };
}

/** The files the action writes in the state folder the previous call owned: replaced, never followed. */
type StateWriter = (rel: string, text: string) => Promise<string>;

async function geminiArgs(inv: Invocation, write: StateWriter): Promise<string[]> {
  const args = ['-o', 'json', '-m', inv.model, '--include-directories', inv.contextDir];
  if (isReadOnly(inv.role)) {
    const policy = await write('gemini/read-only-policy.toml', READ_ONLY_POLICY);
    args.push('--approval-mode', 'default', '--admin-policy', policy);
  } else {
    const policy = await write('gemini/fixer-policy.toml', FIXER_POLICY);
    args.push('--skip-trust', '--approval-mode', 'auto_edit', '--policy', policy);
  }
  // The policy and approval mode are this call's: a reviewer resumes read-only.
  if (inv.sessionId) args.push('--resume', inv.sessionId);
  return args;
}

// The checkout is the PR's. Gemini CLI 0.61.0 asks "is the workspace trusted?" through
// checkPathTrust, where GEMINI_CLI_TRUST_WORKSPACE=false means "no" before anything else.
// Untrusted, it merges none of the checkout's .gemini/settings.json (mcpServers and hooks it
// would start, tools.discoveryCommand it would run, tools.allowed) and reads no .gemini/.env;
// from .env it takes four auth variables, and none with advanced.ignoreLocalEnv (bundle:
// _doLoadSettings, loadEnvironment, validateAuthMethod, folderTrustCheck).
// - Read-only roles stay untrusted for the whole run. Headless mode refuses an untrusted
//   folder only while folder trust is enabled, so their settings turn it off, which also
//   means the checkout's GEMINI.md is not read.
// - The fixer needs a trusted folder (else auto_edit falls back to default and git commands
//   are refused). --skip-trust sets the variable to true after the settings load, so the
//   checkout's settings are still not merged, but the auth check then reads .gemini/.env:
//   that file comes from the base branch (git/agent-config.ts).
const UNTRUSTED_CHECKOUT = { GEMINI_CLI_TRUST_WORKSPACE: 'false' };

/**
 * The built-in tools a read-only role reads with. `tools.core` registers no other built-in tool, so
 * the model is not sent the definitions of the rest nor the system prompt's sections about them
 * (sub-agents, plan mode): with the settings below, about 9,000 characters of every request (0.61.0). It also
 * adds allow rules for these tools and a deny rule for every other tool below them; the admin-tier
 * policy above still denies the write and shell tools.
 */
const READ_TOOLS = ['read_file', 'list_directory', 'glob', 'grep_search'];

/** Tools the fixer does not use (it edits and runs commands in the checkout, like the other CLIs' fixers). */
const FIXER_UNUSED_TOOLS = ['google_web_search', 'web_fetch', 'invoke_agent', 'enter_plan_mode', 'update_topic'];

/** Written over agent-config, which cannot undo them. */
function guardSettings(inv: Invocation, userSettings: JsonObject): JsonObject {
  // No agent skills (their list is system text, activate_skill a tool) and no topic narration.
  const guard: JsonObject = {
    advanced: { ignoreLocalEnv: true },
    skills: { enabled: false },
    general: { topicUpdateNarration: false },
  };
  if (isReadOnly(inv.role)) {
    return deepMerge(guard, {
      security: { folderTrust: { enabled: false } },
      // No shell tool, so no text about its output either.
      tools: { core: READ_TOOLS, shell: { enableShellOutputEfficiency: false } },
    });
  }
  const tools = isObject(userSettings.tools) ? userSettings.tools : {};
  const excluded = Array.isArray(tools.exclude) ? tools.exclude : [];
  return deepMerge(guard, { tools: { exclude: [...new Set([...excluded, ...FIXER_UNUSED_TOOLS])] } });
}

async function runGemini(opts: CliAdapterOptions, inv: Invocation): Promise<AgentAnswer> {
  const home = path.join(inv.stateDir, 'gemini');
  const log = adapterLog('gemini', opts, inv);
  const write: StateWriter = (rel, text) => writeBelow(inv.stateDir, rel, text, { mode: 0o600, log });
  const env = cliEnv(opts, inv, { GEMINI_CLI_HOME: home, ...UNTRUSTED_CHECKOUT });
  const userSettings = deepMerge(baseSettings(env), opts.agentConfig ?? {});
  const settings = deepMerge(userSettings, guardSettings(inv, userSettings));
  await write('gemini/.gemini/settings.json', JSON.stringify(settings, null, 2));
  const res = await runCli('gemini', opts, inv, await geminiArgs(inv, write), env, inv.prompt);
  const failure = processFailure(res, inv.timeoutMs);
  if (res.timedOut) throw cliError('gemini', inv, failure!, res);
  const out = parseJsonOutput(res.stdout);
  if (failure || !out || typeof out.response !== 'string') {
    const { text, auth } = describeError(res.stderr, res.exitCode);
    throw unauthenticatedIf(auth, cliError('gemini', inv, `${failure ?? 'exited 0'}${text}`, res));
  }
  const models = isObject(out.stats) && isObject(out.stats.models) ? out.stats.models : {};
  const tokens = Object.values(models).map((m) => (isObject(m) && isObject(m.tokens) ? m.tokens : {}));
  return {
    text: out.response,
    model: reportedModel(models, inv.model),
    sessionId: typeof out.session_id === 'string' ? out.session_id : null,
    // Gemini reports no cost.
    usage: {
      inputTokens: sumOrNull(...tokens.map((t) => num(t.prompt))),
      outputTokens: sumOrNull(...tokens.map((t) => num(t.candidates))),
      costUsd: null,
    },
    durationMs: res.durationMs,
  };
}

/** `-o json` prints one pretty-printed object (several lines), possibly after warnings. */
function parseJsonOutput(stdout: string): JsonObject | null {
  const start = stdout.search(/^\{/m);
  if (start < 0) return null;
  try {
    const v: unknown = JSON.parse(stdout.slice(start, stdout.lastIndexOf('}') + 1));
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/** Gemini prints `{session_id, error{type,message,code}}` on stderr; exit codes 41/42 mean auth. */
function describeError(stderr: string, exitCode: number | null): { text: string; auth: boolean } {
  const message = lastErrorObject(stderr);
  const auth = exitCode === 41 || /auth|api key|GEMINI_API_KEY/i.test(message);
  const hint = auth ? ' (not authenticated: set GEMINI_API_KEY)' : '';
  return { text: `${message ? `: ${message}` : ' and printed no JSON result'}${hint}`, auth };
}

/** `error.message` of the last pretty-printed JSON object on stderr (after any stack trace). */
function lastErrorObject(stderr: string): string {
  const end = stderr.lastIndexOf('}') + 1;
  const starts = [...stderr.matchAll(/^\{/gm)].map((m) => m.index).reverse();
  for (const at of starts) {
    try {
      const v: unknown = JSON.parse(stderr.slice(at, end));
      if (isObject(v) && isObject(v.error)) return String(v.error.message);
    } catch {
      // not this one; try an earlier line
    }
  }
  return '';
}

/** The `stats.models` key that matches the model asked for, else the one with the most tokens. */
function reportedModel(models: JsonObject, asked: string): string | null {
  const names = Object.keys(models);
  if (names.length === 0) return null;
  const match = names.find((n) => modelMatches(asked, n));
  if (match) return match;
  const total = (n: string): number => {
    const m = models[n];
    return isObject(m) && isObject(m.tokens) ? (num(m.tokens.total) ?? 0) : 0;
  };
  return names.reduce((a, b) => (total(b) > total(a) ? b : a));
}
