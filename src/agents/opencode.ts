// OpenCode adapter: `opencode run --format json -m <provider/model>`, prompt on
// stdin. Its config, events and permissions, as the pinned version has them: docs/agents.md
// and the adapter tests against the real binary (test/agents/opencode.test.ts).
//
// Permissions come from OpenCode's own `permission` config, written last so
// agent-config cannot loosen it: read-only roles get edit, bash and webfetch
// "deny" (OpenCode then removes those tools from the model's tool list); the
// fixer gets edit and bash "allow". No role gets task (sub-agents), skill or
// todowrite, which none uses: denied, their definitions and the skills list are
// not sent with every request (about 8,000 characters, 1.18.33). Every role may
// read the context folder (external_directory), which `run` would otherwise
// auto-reject. Never `--auto`.
// Project config (the checkout's opencode.json, opencode.jsonc, .opencode/) is off,
// and a read-only role refuses a checkout holding plugins, which 1.18.33 loads anyway.
//
// Model: NOT reported. The JSON events carry no model name (only
// `opencode export` would show it, at the cost of another multi-second start),
// so `model` is null and the model check reports "not reported".
import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { kindOf, readRegularFile, writeBelow } from '../files/untrusted-files.js';
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
  sumOrNull,
  type CliAdapterOptions,
  type JsonObject,
} from './cli-common.js';
import { AgentError } from './types.js';
import type { AgentAdapter, AgentAnswer, Invocation } from './types.js';

const BASE_CONFIG: JsonObject = { $schema: 'https://opencode.ai/config.json', autoupdate: false, share: 'disabled' };

export function createOpencodeAdapter(opts: CliAdapterOptions = {}): AgentAdapter {
  return { kind: 'opencode', run: (inv) => runOpencode(opts, inv) };
}

function permissions(inv: Invocation): JsonObject {
  const mode = isReadOnly(inv.role) ? 'deny' : 'allow';
  return {
    permission: {
      edit: mode,
      bash: mode,
      webfetch: 'deny',
      task: 'deny',
      skill: 'deny',
      todowrite: 'deny',
      external_directory: { [`${inv.contextDir}/**`]: 'allow' },
    },
  };
}

function opencodeArgs(inv: Invocation): string[] {
  // --title skips the extra LLM call that would name the session.
  const args = ['run', '--format', 'json', '-m', inv.model, '--title', `${inv.name} round ${inv.round}`];
  // The permissions come from this call's config, whatever the session: a reviewer resumes read-only.
  if (inv.sessionId) args.push('--session', inv.sessionId);
  return args;
}

/**
 * What OpenCode 1.18.33 would import as code from the checkout even with
 * OPENCODE_DISABLE_PROJECT_CONFIG: its second config loader ("@opencode/v2/Config" in the
 * binary) ignores that switch, walks the checkout for .opencode/ and opencode.json(c), and
 * its "config-plugin" imports every .opencode/{plugin,plugins}/*.{ts,js} and every
 * `plugin`/`plugins` entry (a path, or an npm package it installs) at start, whatever the
 * permissions (test/agents/hostile-config.test.ts). The documents are not parsed: a
 * plugin key anywhere in them counts, so a doubt refuses. The checkout is what earlier calls
 * left: a link where a folder or document is (OpenCode would follow it), or a document that is no
 * regular file or too large to be one, counts too; none is followed or read.
 */
async function projectPlugins(cwd: string): Promise<string[]> {
  const found: string[] = [];
  const linked = await lstatOrNull(path.join(cwd, '.opencode'));
  if (linked?.isSymbolicLink()) found.push(`.opencode (${kindOf(linked)})`);
  for (const dir of linked?.isDirectory() ? ['.opencode/plugin', '.opencode/plugins'] : []) {
    const st = await lstatOrNull(path.join(cwd, dir));
    if (st?.isSymbolicLink()) found.push(`${dir} (${kindOf(st)})`);
    if (!st?.isDirectory()) continue;
    const names = await readdir(path.join(cwd, dir)).catch(() => [] as string[]);
    found.push(...names.filter((n) => /\.[jt]s$/.test(n)).map((n) => `${dir}/${n}`));
  }
  for (const doc of ['opencode.json', 'opencode.jsonc', '.opencode/opencode.json', '.opencode/opencode.jsonc']) {
    if (doc.startsWith('.opencode/') && !linked?.isDirectory()) continue;
    const read = await readRegularFile(path.join(cwd, doc), MAX_CONFIG_BYTES);
    if (read && 'refused' in read) found.push(`${doc} (${read.refused})`);
    else if (read && /"plugins?"\s*:/.test(read.bytes.toString('utf8'))) found.push(`${doc} (its plugin list)`);
  }
  return found;
}

/** Far more than any config document a person writes. */
const MAX_CONFIG_BYTES = 1024 * 1024;

const lstatOrNull = (p: string) => lstat(p).catch(() => null);

/**
 * With project config off, OpenCode skips the checkout's instruction file too, and resolves
 * relative `instructions` against its global config folder. So the file it would have read
 * (the first of these, as 1.18.33 looks them up; restored from the base branch by
 * git/agent-config.ts) is named by its absolute path.
 */
const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', 'CONTEXT.md'];

async function checkoutInstructions(cwd: string): Promise<string[]> {
  for (const name of INSTRUCTION_FILES) {
    const file = path.join(cwd, name);
    if (
      await stat(file).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return [file];
  }
  return [];
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A read-only role does not start where OpenCode would run the checkout's plugin code. */
async function refuseProjectPlugins(inv: Invocation): Promise<void> {
  if (!isReadOnly(inv.role)) return; // the fixer runs the checkout's code anyway (bash)
  const found = await projectPlugins(inv.cwd);
  if (found.length === 0) return;
  const why = `OpenCode may run plugin code from the checkout (${found.join(', ')}) with project config disabled`;
  throw new AgentError(`opencode agent (${inv.name}, model ${inv.model}) not started: ${why}`, {
    agent: 'opencode',
    model: inv.model,
  });
}

async function runOpencode(opts: CliAdapterOptions, inv: Invocation): Promise<AgentAnswer> {
  await refuseProjectPlugins(inv);
  const home = path.join(inv.stateDir, 'opencode');
  const xdg = { XDG_CONFIG_HOME: 'config', XDG_DATA_HOME: 'data', XDG_CACHE_HOME: 'cache', XDG_STATE_HOME: 'state' };
  const dirs = Object.fromEntries(Object.entries(xdg).map(([k, d]) => [k, path.join(home, d)]));
  const config = deepMerge(deepMerge(BASE_CONFIG, opts.agentConfig ?? {}), permissions(inv));
  config.instructions = [...(await checkoutInstructions(inv.cwd)), ...asArray(config.instructions)];
  // The state folder was the previous call's: what it left at this name is replaced, never followed.
  const log = adapterLog('opencode', opts, inv);
  const text = JSON.stringify(config, null, 2);
  await writeBelow(inv.stateDir, 'opencode/config/opencode/opencode.json', text, { mode: 0o600, log });
  const env = cliEnv(opts, inv, {
    ...dirs,
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    // The models.dev catalog fetch; the binary carries a snapshot of it.
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    // The checkout is the PR's: without this, OpenCode 1.18.33 merges its opencode.json(c)
    // and .opencode/ over ours (permissions, a provider's baseURL, local MCP servers it starts
    // at once); with it, the binary's config loader skips project files, .opencode/ folders
    // and the project's AGENTS.md. Plugins: see projectPlugins.
    OPENCODE_DISABLE_PROJECT_CONFIG: '1',
  });
  const res = await runCli('opencode', opts, inv, opencodeArgs(inv), env, inv.prompt);
  const events = jsonLines(res.stdout);
  const failure = processFailure(res, inv.timeoutMs);
  if (res.timedOut) throw cliError('opencode', inv, failure!, res);
  const errors = events.filter((e) => e.type === 'error').map(errorMessage);
  const steps = events.filter((e) => e.type === 'step_finish' && isObject(e.part)).map((e) => e.part as JsonObject);
  // An error event without a non-zero exit is a retry OpenCode recovered from.
  if (failure || steps.length === 0) {
    const cause =
      errors.length > 0 ? `reported an error: ${errors.at(-1)}` : `${failure ?? 'exited 0'} without finishing a step`;
    const auth = /api key|auth|401|unauthori/i.test(cause);
    const hint = auth ? " (not authenticated: set the provider's API key)" : '';
    throw unauthenticatedIf(auth, cliError('opencode', inv, `${cause}${hint}`, res));
  }
  const texts = events
    .filter((e) => e.type === 'text' && isObject(e.part))
    .map((e) => String((e.part as JsonObject).text ?? ''));
  const tokens = steps.map((s) => (isObject(s.tokens) ? s.tokens : {}));
  const cache = (t: JsonObject, k: string): number | null => (isObject(t.cache) ? num(t.cache[k]) : null);
  const cost = sumOrNull(...steps.map((s) => num(s.cost)));
  return {
    text: texts.join('\n\n'),
    model: null,
    sessionId: events.map((e) => e.sessionID).find((s): s is string => typeof s === 'string') ?? null,
    usage: {
      inputTokens: sumOrNull(...tokens.flatMap((t) => [num(t.input), cache(t, 'read'), cache(t, 'write')])),
      outputTokens: sumOrNull(...tokens.map((t) => num(t.output))),
      // OpenCode prints 0 when the model has no price in its catalog: that is "unknown", not free.
      costUsd: cost === 0 ? null : cost,
    },
    durationMs: res.durationMs,
  };
}

function errorMessage(e: JsonObject): string {
  const err = isObject(e.error) ? e.error : {};
  const data = isObject(err.data) ? err.data : {};
  const status = num(data.statusCode);
  const message = typeof data.message === 'string' ? data.message : String(err.name ?? 'error');
  return `${message}${status ? ` (HTTP ${status})` : ''}`;
}
