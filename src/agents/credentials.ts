// Whether a CLI has a key, known before its first call where the environment tells. GitHub gives
// a workflow run for a fork PR no secrets: each `${{ secrets.X }}` is an empty string, as is a
// secret the repository does not have. So a CLI whose credential variables are set but all empty
// cannot authenticate, and starting it only costs its start-up and a confusing message. Where no
// credential variable is set at all, nothing is known: the CLI may authenticate some other way,
// and its own failure tells (run-role.ts reads it).
import type { AgentSpec } from './types.js';

/** The variables that authenticate each CLI (docs/agents.md); one with a value is enough. */
const CLI_CREDENTIALS = {
  // Anthropic's API key or token, a Claude subscription token, Bedrock, Vertex.
  claude: [
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_AUTH_TOKEN',
    'CLAUDE_CODE_OAUTH_TOKEN',
    'AWS_BEARER_TOKEN_BEDROCK',
    'AWS_ACCESS_KEY_ID',
    'GOOGLE_APPLICATION_CREDENTIALS',
  ],
  codex: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_APPLICATION_CREDENTIALS'],
} as const;

/** OpenCode reads the key of the model's provider (`provider/model`); these are the common ones. */
const OPENCODE_PROVIDER_KEYS: Record<string, readonly string[]> = {
  anthropic: ['ANTHROPIC_API_KEY'],
  openai: ['OPENAI_API_KEY'],
  google: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
  openrouter: ['OPENROUTER_API_KEY'],
  groq: ['GROQ_API_KEY'],
  mistral: ['MISTRAL_API_KEY'],
  deepseek: ['DEEPSEEK_API_KEY'],
  xai: ['XAI_API_KEY'],
  togetherai: ['TOGETHER_AI_API_KEY'],
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The variables that would authenticate `spec`, or null when they cannot be told: the command
 * agent, a provider this does not know, or agent-config that brings a credential of its own.
 */
function credentialVariables(spec: AgentSpec, agentConfig: Record<string, unknown> = {}): string[] | null {
  switch (spec.agent) {
    case 'claude':
      // Settings can carry a key (env) or a command that prints one (apiKeyHelper).
      return 'apiKeyHelper' in agentConfig || 'env' in agentConfig ? null : [...CLI_CREDENTIALS.claude];
    case 'gemini':
      return [...CLI_CREDENTIALS.gemini];
    case 'codex': {
      const provider = typeof agentConfig.model_provider === 'string' ? agentConfig.model_provider : 'openai';
      if (provider === 'openai') return [...CLI_CREDENTIALS.codex];
      const entry = isObject(agentConfig.model_providers) ? agentConfig.model_providers[provider] : undefined;
      // A provider without env_key may need no key (a local server).
      return isObject(entry) && typeof entry.env_key === 'string' ? [entry.env_key] : null;
    }
    case 'opencode': {
      const provider = spec.model.includes('/') ? spec.model.slice(0, spec.model.indexOf('/')) : '';
      const providers = isObject(agentConfig.provider) ? agentConfig.provider : {};
      const entry = providers[provider];
      if (isObject(entry)) {
        const apiKey = isObject(entry.options) ? entry.options.apiKey : undefined;
        const named = typeof apiKey === 'string' ? /^\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(apiKey.trim()) : null;
        // A literal key, or none: OpenCode finds its own; nothing is known.
        return named ? [named[1]!] : null;
      }
      const known = OPENCODE_PROVIDER_KEYS[provider];
      return known ? [...known] : null;
    }
    default:
      return null;
  }
}

/**
 * The credential variables of `spec` that are set but empty, when none of them has a value: the
 * CLI cannot authenticate. Null when one has a value, none is set, or nothing can be told.
 */
export function emptyCredentials(
  spec: AgentSpec,
  env: NodeJS.ProcessEnv,
  agentConfig?: Record<string, unknown>,
): string[] | null {
  const names = credentialVariables(spec, agentConfig);
  if (!names) return null;
  if (names.some((n) => (env[n] ?? '').trim() !== '')) return null;
  const empty = names.filter((n) => env[n] !== undefined);
  return empty.length > 0 ? empty : null;
}

/** "ANTHROPIC_API_KEY is set but empty", for logs and reports. */
export function describeEmpty(names: readonly string[]): string {
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return `${list} ${names.length === 1 ? 'is' : 'are'} set but empty`;
}

/** Why a set-but-empty key is the usual sight, for messages that name one. */
export const EMPTY_SECRET_WHY =
  "GitHub passes no secrets to a workflow run for a fork's pull request, and a secret that does not exist is empty";
