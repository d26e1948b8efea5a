// The one place that starts git. execFile (not @actions/exec) so output is captured
// quietly and each child's environment is explicit.
import { execFile } from 'node:child_process';
import { pathThenSystem, trustedProgram } from '../process/programs.js';
import { ISOLATION_ENV, PROTECTIVE_CONFIG, USER_SCOPES_ENV } from './isolation.js';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface GitCallOptions {
  allowFail?: boolean;
  env?: NodeJS.ProcessEnv;
  input?: string;
  /**
   * `git config` only: read the runner user's global and system config too, for the identity
   * the workflow set there, copied into the checkout before any agent runs (identity.ts).
   * Every other command reads neither.
   */
  userScopes?: boolean;
}

export type Git = (args: string[], opts?: GitCallOptions) => Promise<GitResult>;

/** Credentials for the action's own fetch/push/ls-remote; never written to disk or argv. */
export interface GitAuth {
  serverUrl: string;
  token: string;
}

export class GitError extends Error {
  constructor(
    message: string,
    readonly subcommand: string,
    readonly result: GitResult,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

// Only these talk to the remote, so only these children ever see the token.
const NETWORK_SUBCOMMANDS = new Set(['fetch', 'push', 'ls-remote']);
const MAX_BUFFER = 64 * 1024 * 1024;
const STDERR_TAIL = 2000;

export function createGit(cwd: string, opts: { env?: NodeJS.ProcessEnv; auth?: GitAuth } = {}): Git {
  const baseEnv = withoutTokens(opts.env ?? process.env);
  const secrets = opts.auth ? secretForms(opts.auth.token) : [];
  const redact = (s: string): string => secrets.reduce((acc, x) => acc.split(x).join('***'), s);

  const git: Git = async (args, call = {}) => {
    const sub = subcommandOf(args);
    if (call.userScopes && sub !== 'config') throw new Error(`userScopes is for git config only, not git ${sub}`);
    await beforeCommand.get(git)?.();
    const config: Array<[string, string]> = [...PROTECTIVE_CONFIG];
    if (opts.auth && NETWORK_SUBCOMMANDS.has(sub)) config.push(...authConfig(opts.auth));
    const isolate = call.userScopes ? USER_SCOPES_ENV : ISOLATION_ENV;
    const env = withConfigEnv({ ...baseEnv, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', ...call.env, ...isolate }, config);
    const raw = await run(cwd, args, env, call.input);
    const result = { code: raw.code, stdout: redact(raw.stdout), stderr: redact(raw.stderr) };
    if (result.code !== 0 && !call.allowFail) {
      const tail = result.stderr.trim().slice(-STDERR_TAIL) || result.stdout.trim().slice(-STDERR_TAIL);
      throw new GitError(`git ${sub} failed (exit ${result.code}): ${tail}`, sub, result);
    }
    return result;
  };
  beforeCommand.set(git, null);
  return git;
}

/** What runs before every command of a git function createGit made; null: nothing yet. */
const beforeCommand = new WeakMap<Git, (() => Promise<void>) | null>();

/**
 * Makes `hook` run before every later command of `git` (config-guard.ts restores the pinned
 * local config with it). `git` must come from createGit: a wrapper could call around the hook.
 * One hook per git function; a hook that throws fails the command, so nothing runs unguarded.
 */
export function beforeEveryCommand(git: Git, hook: () => Promise<void>): void {
  if (!beforeCommand.has(git)) throw new Error('only a git function made by createGit runs hooks before its commands');
  if (beforeCommand.get(git)) throw new Error('this git function already runs a hook before its commands');
  beforeCommand.set(git, hook);
}

// Git itself needs none of these; a filter or hook an agent planted must not see them either
// (GitAuth is the only way a token reaches a git child, and only a network one).
const TOKEN_VARS = new RegExp(
  '^(INPUT_.*|GITHUB_TOKEN|GH_TOKEN|ACTIONS_RUNTIME_TOKEN|' +
    'ACTIONS_ID_TOKEN_REQUEST_TOKEN|ACTIONS_ID_TOKEN_REQUEST_URL)$',
  'i',
);

function withoutTokens(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !TOKEN_VARS.test(k)));
}

function authConfig(auth: GitAuth): Array<[string, string]> {
  const basic = Buffer.from(`x-access-token:${auth.token}`).toString('base64');
  const prefix = auth.serverUrl.replace(/\/+$/, '');
  return [
    [`http.${prefix}/.extraheader`, `AUTHORIZATION: basic ${basic}`],
    ['http.sslVerify', 'true'],
  ];
}

/** Appends entries after any GIT_CONFIG_COUNT the caller's environment already carries. */
function withConfigEnv(env: NodeJS.ProcessEnv, entries: ReadonlyArray<[string, string]>): NodeJS.ProcessEnv {
  const out = { ...env };
  let n = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10);
  if (!Number.isFinite(n) || n < 0) n = 0;
  for (const [key, value] of entries) {
    out[`GIT_CONFIG_KEY_${n}`] = key;
    out[`GIT_CONFIG_VALUE_${n}`] = value;
    n++;
  }
  out.GIT_CONFIG_COUNT = String(n);
  return out;
}

function secretForms(token: string): string[] {
  if (!token) return [];
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return [token, basic];
}

/** The git subcommand, skipping global options such as `-C dir` or `-c k=v`. */
export function subcommandOf(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '-C' || a === '-c') i++;
    else if (!a.startsWith('-')) return a;
  }
  return '';
}

function run(cwd: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<GitResult> {
  return new Promise((resolve) => {
    // By its absolute path, never through a PATH folder a call could have written (programs.ts).
    let git: string;
    try {
      git = trustedProgram('git', pathThenSystem());
    } catch (e) {
      return resolve({ code: 127, stdout: '', stderr: e instanceof Error ? e.message : String(e) });
    }
    const child = execFile(git, args, { cwd, env, maxBuffer: MAX_BUFFER, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (!err) return resolve({ code: 0, stdout, stderr });
      const code = typeof err.code === 'number' ? err.code : 128;
      const extra = typeof err.code === 'number' ? '' : `${err.message}\n`;
      resolve({ code, stdout: stdout ?? '', stderr: `${stderr ?? ''}${extra}` });
    });
    // Closing stdin always: some subcommands read it when given nothing.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input ?? '');
  });
}
