// Claude Code adapter: `claude -p --output-format json`, prompt on stdin (no
// argv size limit). Its flags and output shape are pinned by the adapter tests against the real
// binary (test/agents/claude.test.ts).
//
// Permissions come from the CLI's own switches: read-only roles get only the
// Read/Grep/Glob tools (`--tools` removes the others from the model's tool list,
// so a Write call is refused by the CLI); the fixer gets edit tools with
// `--permission-mode acceptEdits` and Bash through `--allowedTools`. In -p mode
// anything not allowed is denied, never prompted. Nothing in the checkout adds to
// that: project settings and project MCP servers are not loaded (CLAUDE.md is).
//
// Model: reported. The result's `modelUsage` keys are the models the CLI called.
import path from 'node:path';
import { writeBelow } from '../files/untrusted-files.js';
import {
  adapterLog,
  cliEnv,
  cliError,
  findLast,
  isObject,
  isReadOnly,
  jsonLines,
  num,
  processFailure,
  runCli,
  sumOrNull,
  unauthenticatedIf,
  type CliAdapterOptions,
  type JsonObject,
} from './cli-common.js';
import { modelMatches } from './run-role.js';
import type { AgentAdapter, AgentAnswer, Invocation } from './types.js';
import type { Usage } from '../domain/agent-run.js';

const READ_ONLY_TOOLS = 'Read,Grep,Glob';
// Other processes' environments (the action's holds the token) are readable under /proc by
// the same user. Claude Code already asks before reading outside the checkout and the context
// folder (and -p mode denies what it would ask), so this is a second, explicit wall.
const NO_PROC_READS = ['Read(//proc/**)', 'Grep(//proc/**)', 'Glob(//proc/**)', 'Read(//sys/**)'];
const FIXER_TOOLS = 'Bash,Edit,Write,Read,Grep,Glob';

export function createClaudeAdapter(opts: CliAdapterOptions = {}): AgentAdapter {
  return { kind: 'claude', run: (inv) => runClaude(opts, inv) };
}

async function claudeArgs(opts: CliAdapterOptions, inv: Invocation): Promise<string[]> {
  const args = ['-p', '--output-format', 'json', '--model', inv.model];
  // Claude Code stops a call past this cost itself.
  if (inv.maxCostUsd !== undefined) args.push('--max-budget-usd', Math.max(inv.maxCostUsd, 1e-6).toFixed(6));
  // Only MCP servers we pass (none): a checkout's .mcp.json must not add tools.
  args.push('--strict-mcp-config', '--add-dir', inv.contextDir);
  // Settings from $CLAUDE_CONFIG_DIR (ours) and --settings only, never the checkout's
  // .claude/settings.json or settings.local.json: their hooks, apiKeyHelper, permissions
  // and `env` (ANTHROPIC_BASE_URL, custom headers) would be the PR's (`claude --help`,
  // 2.1.197). Without the project source Claude Code also skips the checkout's CLAUDE.md;
  // naming the checkout in --add-dir with CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD
  // brings that file (restored from the base branch, git/agent-config.ts) back, and only it.
  args.push('--setting-sources', 'user', '--add-dir', inv.cwd);
  if (isReadOnly(inv.role)) {
    args.push('--tools', READ_ONLY_TOOLS, '--permission-mode', 'default', '--disallowedTools', ...NO_PROC_READS);
  } else {
    args.push('--tools', FIXER_TOOLS, '--allowedTools', 'Bash,Edit,Write', '--permission-mode', 'acceptEdits');
  }
  // The tools and permissions above are this call's, not the resumed session's: a reviewer
  // resumes read-only (test/agents/cli-suite.ts).
  if (inv.sessionId) args.push('--resume', inv.sessionId);
  if (opts.agentConfig && Object.keys(opts.agentConfig).length > 0) {
    // agent-config.claude is a settings.json object (env, model aliases, apiKeyHelper, …).
    // Our --tools and --permission-mode flags win over anything in it.
    // The state folder was the previous call's: what it left at this name is replaced, never followed.
    const log = adapterLog('claude', opts, inv);
    const settings = JSON.stringify(opts.agentConfig, null, 2);
    args.push('--settings', await writeBelow(inv.stateDir, 'settings.json', settings, { mode: 0o600, log }));
  }
  return args;
}

async function runClaude(opts: CliAdapterOptions, inv: Invocation): Promise<AgentAnswer> {
  const env = cliEnv(opts, inv, {
    // The state home: sessions, ~/.claude.json and settings live here, not in HOME.
    CLAUDE_CONFIG_DIR: path.join(inv.stateDir, 'claude'),
    // Telemetry, error reporting, auto-update and preflight calls all off.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    // CLAUDE.md of the --add-dir folders: the checkout's (see claudeArgs).
    CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD: '1',
    // Text sent with every request that no call uses (2.1.197): auto memory's instructions, about
    // 13,000 characters of the system prompt (a call's memory folder goes with its state folder), and
    // the Bash tool's git commit and pull request instructions, about 6,000 (the action commits).
    CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1',
    CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS: '1',
  });
  const res = await runCli('claude', opts, inv, await claudeArgs(opts, inv), env, inv.prompt);
  const result = findLast(jsonLines(res.stdout), (o) => o.type === 'result');
  if (res.timedOut) throw cliError('claude', inv, processFailure(res, inv.timeoutMs)!, res);
  if (!result) {
    const cause = processFailure(res, inv.timeoutMs) ?? 'exited 0';
    throw cliError('claude', inv, `${cause} and printed no JSON result`, res);
  }
  if (result.is_error === true || res.exitCode !== 0) {
    const text = typeof result.result === 'string' ? result.result : JSON.stringify(result.subtype);
    const auth = /not logged in|api key|login/i.test(text);
    const hint = auth ? ' (not authenticated: set ANTHROPIC_API_KEY)' : '';
    // A failed call was still paid for (a spending limit hit after a turn): the budget counts it.
    const error = cliError('claude', inv, `reported an error: ${text}${hint}`, res);
    error.detail.usage = usageOf(result);
    throw unauthenticatedIf(auth, error);
  }
  return {
    text: typeof result.result === 'string' ? result.result : '',
    model: reportedModel(result, inv.model),
    sessionId: typeof result.session_id === 'string' ? result.session_id : null,
    usage: usageOf(result),
    durationMs: res.durationMs,
  };
}

function usageOf(result: JsonObject): Usage {
  const usage = isObject(result.usage) ? result.usage : {};
  return {
    inputTokens: sumOrNull(
      num(usage.input_tokens),
      num(usage.cache_creation_input_tokens),
      num(usage.cache_read_input_tokens),
    ),
    outputTokens: num(usage.output_tokens),
    costUsd: num(result.total_cost_usd),
  };
}

/** The `modelUsage` key that matches the model asked for, else the one that used the most tokens. */
function reportedModel(result: JsonObject, asked: string): string | null {
  const used = isObject(result.modelUsage) ? Object.entries(result.modelUsage) : [];
  if (used.length === 0) return null;
  const match = used.find(([name]) => modelMatches(asked, name));
  if (match) return match[0];
  const tokens = (u: unknown): number => (isObject(u) ? (num(u.inputTokens) ?? 0) + (num(u.outputTokens) ?? 0) : 0);
  return used.reduce((a, b) => (tokens(b[1]) > tokens(a[1]) ? b : a))[0];
}
