// Least privilege for environments: an agent CLI gets only the variables
// that CLI needs (its provider keys and base URLs), plus what every process needs (PATH,
// locale, proxy and CA settings). Verify commands and hooks get the same base and nothing
// secret unless the workflow names it in `verify-env`. Anything else in the step's
// environment (a deploy key, a cloud credential for another step) never reaches them.
import type { AgentKind } from './types.js';

/** A name or, ending in `*`, a prefix. Matched case-sensitively, as the CLIs read them. */
export type EnvPattern = string;

/** What any process needs to run like it would in the step: no secrets here. */
const BASE_ALLOW: readonly EnvPattern[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TMPDIR',
  'TEMP',
  'TMP',
  'TZ',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'CI',
  'GITHUB_ACTIONS',
  'RUNNER_OS',
  'RUNNER_ARCH',
  // Proxies and private CAs of self-hosted runners; both spellings are in use.
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'REVIEW_LOOP_*',
];

// Each CLI's documented provider variables (docs/agents.md lists them per CLI).
const CLI_ALLOW: Record<Exclude<AgentKind, 'command'>, readonly EnvPattern[]> = {
  // Anthropic API, Bedrock and Vertex (docs.anthropic.com/en/docs/claude-code/settings#environment-variables).
  claude: [
    'ANTHROPIC_*',
    'CLAUDE_*',
    'DISABLE_*',
    'MAX_THINKING_TOKENS',
    'AWS_REGION',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'AWS_BEARER_TOKEN_BEDROCK',
    'CLOUD_ML_REGION',
    'VERTEX_REGION_*',
    'GOOGLE_APPLICATION_CREDENTIALS',
  ],
  codex: ['OPENAI_*', 'CODEX_*', 'AZURE_OPENAI_*'],
  // OpenCode speaks to many providers through the AI SDK; the common ones by name.
  opencode: [
    'OPENCODE_*',
    'XDG_*',
    'ANTHROPIC_*',
    'OPENAI_*',
    'GOOGLE_GENERATIVE_AI_*',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'GOOGLE_CLOUD_*',
    'GEMINI_API_KEY',
    'OPENROUTER_API_KEY',
    'GROQ_API_KEY',
    'MISTRAL_API_KEY',
    'DEEPSEEK_API_KEY',
    'XAI_API_KEY',
    'TOGETHER_AI_API_KEY',
    'AZURE_*',
    'AWS_REGION',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
  ],
  // geminicli.com/docs/get-started/authentication: API key, Vertex AI, base URL for proxies.
  gemini: [
    'GEMINI_*',
    'GOOGLE_API_KEY',
    'GOOGLE_GEMINI_BASE_URL',
    'GOOGLE_GENAI_*',
    'GOOGLE_CLOUD_*',
    'GOOGLE_APPLICATION_CREDENTIALS',
  ],
};

/** The patterns an agent of `kind` may see: the base, its CLI's own, and the workflow's extra names. */
export function agentAllowlist(kind: AgentKind, extraNames: readonly string[] = []): EnvPattern[] {
  return [...BASE_ALLOW, ...(kind === 'command' ? [] : CLI_ALLOW[kind]), ...extraNames];
}

/** Verify commands and hooks: the base plus exactly the names listed in `verify-env`. */
export function commandAllowlist(verifyEnv: readonly string[]): EnvPattern[] {
  return [...BASE_ALLOW, ...verifyEnv];
}

export function isAllowed(name: string, allow: readonly EnvPattern[]): boolean {
  return allow.some((p) => (p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : name === p));
}

/**
 * Names of variables an `agent-config` map refers to, so a custom provider keeps working:
 * Codex's `env_key` and `env_http_headers` (model_providers.<id>) and OpenCode's `{env:NAME}`.
 */
export function envNamesReferencedBy(config: unknown): string[] {
  const found = new Set<string>();
  const visit = (v: unknown, key: string | null, parent: string | null = null): void => {
    if (typeof v === 'string') {
      const namesVar = key === 'env_key' || parent === 'env_http_headers';
      if (namesVar && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) found.add(v);
      for (const m of v.matchAll(/\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g)) found.add(m[1]!);
    } else if (Array.isArray(v)) {
      for (const item of v) visit(item, null);
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, item] of Object.entries(v)) visit(item, k, key);
    }
  };
  visit(config, null);
  return [...found].sort();
}
