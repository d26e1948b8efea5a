// The environment an agent CLI sees: the step's environment minus every GitHub
// and Actions credential or runtime handle. Agents run code from the pull request,
// so anything left here is readable by the PR's author (docs/security.md).
import { isAllowed, type EnvPattern } from './env-allowlist.js';
import { carriesCredential, isToolchainVariable } from './toolchain-env.js';

const FORBIDDEN_EXACT = new Set([
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'GITHUB_PAT',
  'GH_ENTERPRISE_TOKEN',
  'GITHUB_ENTERPRISE_TOKEN',
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_RUNTIME_URL',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'ACTIONS_CACHE_URL',
  'ACTIONS_RESULTS_URL',
  // The step's command files: an agent writing there could set our outputs,
  // our environment or our PATH for the rest of the job.
  'GITHUB_STATE',
  'GITHUB_OUTPUT',
  'GITHUB_ENV',
  'GITHUB_PATH',
  'GITHUB_STEP_SUMMARY',
  // Git credentials that would let an agent push on its own.
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'SSH_AUTH_SOCK',
]);

const FORBIDDEN_PATTERNS: readonly RegExp[] = [
  /^INPUT_/, // action inputs, github-token among them
  /^(GH|GITHUB)_.*(TOKEN|PAT|SECRET|KEY)/,
  /^ACTIONS_.*(TOKEN|SECRET)/,
  /^GIT_CONFIG_/, // GIT_CONFIG_COUNT/KEY_n/VALUE_n can inject an http.extraheader
];

/** True for a variable name an agent must never see. Case-insensitive. */
export function isForbiddenEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return FORBIDDEN_EXACT.has(upper) || FORBIDDEN_PATTERNS.some((re) => re.test(upper));
}

function secretSet(secretValues: readonly string[]): Set<string> {
  // An empty "secret" would match every empty variable; it protects nothing.
  return new Set(secretValues.filter((v) => v.length > 0));
}

function isDropped(name: string, value: string, secrets: Set<string>): boolean {
  return isForbiddenEnvName(name) || secrets.has(value);
}

/**
 * Names (never values) that agentEnv would remove from `base`, sorted, for a log
 * line such as "removed 7 variables from agent env".
 */
export function scrubbedNames(base: NodeJS.ProcessEnv, secretValues: readonly string[] = []): string[] {
  const secrets = secretSet(secretValues);
  return Object.entries(base)
    .filter(([name, value]) => value !== undefined && isDropped(name, value, secrets))
    .map(([name]) => name)
    .sort();
}

/**
 * A copy of `base` with only the names `allow` lists (env-allowlist.ts) and the toolchain
 * variables (toolchain-env.ts), never a forbidden
 * name and never a variable whose value equals one of `secretValues` (a token copied into
 * an oddly named variable), then `extra` on top. `extra` is applied verbatim: it is chosen
 * by our code (REVIEW_LOOP_*, HOME, CLI state homes), not inherited. Without `allow`, every
 * name that is not forbidden passes (the unit tests of the denylist use that).
 */
export function agentEnv(
  base: NodeJS.ProcessEnv,
  extra: Record<string, string>,
  secretValues: readonly string[] = [],
  allow?: readonly EnvPattern[],
): NodeJS.ProcessEnv {
  const secrets = secretSet(secretValues);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || isDropped(name, value, secrets)) continue;
    // A toolchain variable passes unnamed unless its value carries a credential (toolchain-env.ts).
    const toolchain = isToolchainVariable(name) && !carriesCredential(value);
    if (allow && !isAllowed(name, allow) && !toolchain) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}
