// Helpers shared by the four CLI adapters (claude, codex, opencode, gemini).
import { mkdir } from 'node:fs/promises';
import { agentEnv } from './env.js';
import { runProcess } from '../process/process.js';
import type { ProcessResult } from '../process/process.js';
import { AgentError } from './types.js';
import type { AgentKind, Invocation, Role } from './types.js';
import { stderrTail } from './failure.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { callAccess } from './call-access.js';
export { processFailure } from './failure.js';

export interface CliAdapterOptions {
  /** The CLI executable; default: its name, looked up on PATH. */
  binPath?: string;
  /** Paths the workflow's own command line names, shown to the call (the `command` agent). */
  shown?: readonly string[];
  /** The environment to scrub and pass on; default process.env. */
  baseEnv?: NodeJS.ProcessEnv;
  /** This CLI's map from the `agent-config` input, merged into the config the adapter writes. */
  agentConfig?: Record<string, unknown>;
  /** Values (tokens) no variable may carry into the CLI's environment. */
  secretValues?: readonly string[];
  /** Runs the CLI as the sandbox user. */
  sandbox?: Sandbox;
  /** Where the adapter records what it refused to read or replaced in a state folder a call owned. */
  log?: (line: string) => void;
}

/** The adapter's log, each line naming the CLI and the role instance. */
export function adapterLog(kind: AgentKind, opts: CliAdapterOptions, inv: Invocation): (line: string) => void {
  const log = opts.log ?? (() => undefined);
  return (line) => log(`${kind} agent (${inv.name}): ${line}`);
}

/** Reviewers, the analyzer and the gate only read; the fixer edits and the confirmer writes its failing test. */
export const isReadOnly = (role: Role): boolean => role !== 'fixer' && role !== 'confirm';

export type JsonObject = Record<string, unknown>;
export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The scrubbed step environment plus the variables the `command` agent also gets,
 * plus the CLI's own state-home and offline switches in `extra`.
 */
export function cliEnv(opts: CliAdapterOptions, inv: Invocation, extra: Record<string, string>): NodeJS.ProcessEnv {
  const role = {
    REVIEW_LOOP_ROLE: inv.role,
    REVIEW_LOOP_MODEL: inv.model,
    REVIEW_LOOP_ROUND: String(inv.round),
    REVIEW_LOOP_CONTEXT_DIR: inv.contextDir,
    REVIEW_LOOP_AGENT_NAME: inv.name,
  };
  return agentEnv(opts.baseEnv ?? process.env, { ...role, ...extra }, opts.secretValues);
}

/**
 * Runs the CLI in the checkout. The prompt goes on stdin, which is then closed
 * (an open stdin makes several CLIs wait for EOF); stdin also avoids the 128 KiB
 * limit of one argv string. Without `stdin`, stdin is /dev/null.
 */
export async function runCli(
  kind: AgentKind,
  opts: CliAdapterOptions,
  inv: Invocation,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin?: string,
): Promise<ProcessResult> {
  await mkdir(inv.stateDir, { recursive: true, mode: 0o700 });
  const base = { command: opts.binPath ?? kind, args, cwd: inv.cwd, env, timeoutMs: inv.timeoutMs };
  const spec = stdin === undefined ? base : { ...base, stdin };
  const access = { ...callAccess(inv), ...(opts.shown ? { shown: opts.shown } : {}) };
  return opts.sandbox ? opts.sandbox.run(spec, access) : runProcess(spec);
}

/** The role's failure, naming the CLI, the role instance, the model and the cause, with the stderr tail. */
export function cliError(kind: AgentKind, inv: Invocation, cause: string, res: ProcessResult): AgentError {
  const tail = stderrTail(res.stderr);
  return new AgentError(`${kind} agent (${inv.name}, model ${inv.model}) ${cause}${tail ? `; stderr:\n${tail}` : ''}`, {
    agent: kind,
    model: inv.model,
    stderrTail: tail,
    timedOut: res.timedOut,
  });
}

/** `error`, marked as the CLI's failure to authenticate when `auth` (run-role.ts reads the mark). */
export function unauthenticatedIf(auth: boolean, error: AgentError): AgentError {
  if (auth) error.detail.unauthenticated = true;
  return error;
}

/** Each stdout line that is a JSON object; other lines (warnings, banners) are skipped. */
export function jsonLines(stdout: string): JsonObject[] {
  const out: JsonObject[] = [];
  for (const line of stdout.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    try {
      const v: unknown = JSON.parse(t);
      if (isObject(v)) out.push(v);
    } catch {
      // A partial line at the output cap, or a non-JSON line starting with '{'.
    }
  }
  return out;
}

/** The last element matching `pred` (Array#findLast is ES2023; we target ES2022). */
export function findLast<T>(items: readonly T[], pred: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i]!)) return items[i];
  return undefined;
}

/** `over` merged into `base`: objects recursively, anything else replaced. Neither input changes. */
export function deepMerge(base: JsonObject, over: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isObject(b) && isObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}

export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const sumOrNull = (...vs: (number | null)[]): number | null =>
  vs.every((v) => v === null) ? null : vs.reduce<number>((a, v) => a + (v ?? 0), 0);
