// What a fix round works with, fixed for the run (loop-steps.ts builds it once).
import type { AgentSpec } from '../agents/types.js';
import type { Git } from '../git/runner.js';
import type { RoleEnv } from '../roles/call.js';
import type { Sandbox } from '../sandbox/sandbox.js';

export interface FixEnv extends RoleEnv {
  git: Git;
  fixer: AgentSpec;
  gate?: AgentSpec;
  gateMaxLoops: number;
  /** Commands a fix must pass before it is pushed; `none`: pushed without any check, as the workflow chose. */
  verify: readonly string[] | 'none';
  dryRun: boolean;
  verifyEnv: NodeJS.ProcessEnv;
  sandbox?: Sandbox;
  redact: (text: string) => string;
  log: (line: string) => void;
  /**
   * The fixer's session, resumed across gate loops and rounds where the CLI supports it;
   * `history` is what a fresh session is told when resuming is not possible.
   */
  session: { id: string | null; history: string[] };
  /** Paths never committed: agent config restored from the base branch on fork PRs. */
  commitExclude: readonly string[];
  confirm: 'none' | 'P0' | 'P1';
  alreadyConfirmed: Set<string>;
  /** Puts back the checkout's git config as it was before any agent ran; true when it had changed. */
  beforePush: () => Promise<boolean>;
  /**
   * Puts the agent config files (CLAUDE.md, .gemini/.env, OpenCode plugins, …) back to the base
   * branch's before the gate reads the checkout: the fixer may have written them, and they are
   * never committed anyway (commitExclude).
   */
  beforeGate?: () => Promise<unknown>;
  /** `origin`, or the fork's URL when fixes for a fork PR are allowed. */
  pushRemote: string;
  /** What `setup` installed, filled into the fixer's prompt (prompts/fixer-setup.md); none set when absent. */
  installed?: string;
  /**
   * Before verify: runs setup again when the fix changed what an install reads (`changed`: the
   * paths the fix commit changes), so verify tests the fix on its own installation.
   */
  beforeVerify?: (changed: readonly string[]) => Promise<void>;
  /** Every secret value the run knows: a fix commit that holds one is refused. */
  secretValues?: () => readonly string[];
}
