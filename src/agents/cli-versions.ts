// The agent CLIs the action can install, at the versions its adapter tests run against the real
// binaries (test/agents/). The `agent-versions` input overrides them.
import type { AgentKind } from './types.js';

export type CliKind = Exclude<AgentKind, 'command'>;
export const CLI_KINDS: readonly CliKind[] = ['claude', 'codex', 'opencode', 'gemini'];

export interface CliPackage {
  /** npm package name. */
  pkg: string;
  /** The executable it installs under node_modules/.bin. */
  bin: string;
  /** The pinned version. */
  version: string;
}

export const CLI_PACKAGES: Readonly<Record<CliKind, CliPackage>> = {
  // 2.1.197, not the newer 2.1.330: 2.1.330 declares engines.node >=22, so a plain
  // npm install on a Node 20 runner resolves to 2.1.197 anyway (and an engine-strict
  // npm refuses 2.1.330). 2.1.197 installs cleanly on Node >=18; the CLI is a native
  // binary either way. Its quirks (a HEAD / preflight, remapped retired model names)
  // are handled by the adapter and the model check.
  claude: { pkg: '@anthropic-ai/claude-code', bin: 'claude', version: '2.1.197' },
  codex: { pkg: '@openai/codex', bin: 'codex', version: '0.169.0' },
  opencode: { pkg: 'opencode-ai', bin: 'opencode', version: '1.18.33' },
  gemini: { pkg: '@google/gemini-cli', bin: 'gemini', version: '0.61.0' },
};
