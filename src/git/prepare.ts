// The checkout as the loop needs it, in two steps the run calls at their places (run-decide.ts, run-agents.ts):
// - openCheckout: a clean git work tree at the PR head, without persisted credentials;
// - prepareForAgents, before any agent runs: the agent config the CLIs read at start from the
//   base branch, the commit identity, and the local git config pinned.
import { agentConfigPaths, restoreAgentConfigFromBase } from './agent-config.js';
import { ensureAtPrHead } from './checkout.js';
import { guardLocalConfig } from './config-guard.js';
import { stripPersistedCredentials } from './credentials.js';
import { ensureIdentity } from './identity.js';
import { ensureMergeBase } from './merge-base.js';
import { createGit, type Git, type GitAuth } from './runner.js';
import { isWorkTree, statusPorcelain, untrackedEntries } from './state.js';

export interface PrCommits {
  number: number;
  baseSha: string;
  headSha: string;
  headRef: string;
  /** A PR from another repository: its head is fetched through refs/pull/<n>/head. */
  fork: boolean;
}

type Log = (line: string) => void;

/** The action's git for the checkout in `cwd`, at the PR head; throws when the checkout cannot serve. */
export async function openCheckout(cwd: string, auth: GitAuth, pr: PrCommits, log: Log): Promise<Git> {
  const git = createGit(cwd, { auth });
  if (!(await isWorkTree(git))) {
    throw new Error(`The working directory ${cwd} is not a git work tree. Add actions/checkout before this step.`);
  }
  const removed = await stripPersistedCredentials(git);
  if (removed.length) {
    const keys = removed.join(', ');
    log(
      `removed persisted credentials from the checkout's git config (${keys}); ` +
        'the action authenticates its own fetch and push',
    );
  }
  const dirty = await statusPorcelain(git);
  if (dirty.length) {
    throw new Error(`The checkout has uncommitted changes (${listSome(dirty)}); the action needs a clean work tree.`);
  }
  const fetchRef = pr.fork ? { fetchRef: `refs/pull/${pr.number}/head` } : {};
  await ensureAtPrHead(git, { headRef: pr.headRef, headSha: pr.headSha, ...fetchRef });
  return git;
}

export interface PreparedCheckout {
  /**
   * Paths every fix commit leaves out, refreshed in place by each restore: the agent config, and
   * the untracked entries (ignored ones: the checkout was clean) an earlier step of the job left in
   * the checkout. Those can hold its credentials, and the commit is staged by the action's own user,
   * which can read a file the sandbox cannot: a fixer that un-ignores one must not get it pushed.
   */
  commitExclude: readonly string[];
  /** Puts agent config back to the base branch's; returns the files that differ from HEAD. */
  restoreAgentConfig(): Promise<string[]>;
  /**
   * After each `setup` run: what it created (`created`, untracked and ignored entries alike) is
   * left out of every fix commit from now on, replacing what an earlier setup run created, and
   * the agent config is restored, the top-level `.env*` entries setup created removed too.
   */
  afterSetup(created: readonly string[]): Promise<string[]>;
  /** Before each round: restores agent config a fixer may have rewritten (round 1 needs none). */
  beforeRound(): Promise<void>;
  /** Puts the local git config back as pinned; true when something had changed it. */
  restoreGitConfig(): Promise<boolean>;
}

/**
 * On every PR (a same-repo PR's agent config is its author's too), the files the agent
 * CLIs read at start come from the base branch, and fix commits leave them out. The list
 * depends on the trees (`.env*` names), so each restore refreshes it.
 */
export async function prepareForAgents(
  git: Git,
  pr: Pick<PrCommits, 'baseSha' | 'headSha'>,
  log: Log,
): Promise<PreparedCheckout> {
  const earlierSteps = await untrackedEntries(git);
  if (earlierSteps.length) {
    log(
      `left out of fix commits: ${earlierSteps.length} untracked entries the job put in the checkout before the run ` +
        `(${listSome(earlierSteps)})`,
    );
  }
  const commitExclude: string[] = [];
  // What the last setup run created: PR content like the rest (an install runs the PR's scripts).
  const setupCreated: string[] = [];
  const restoreAgentConfig = async (also: readonly string[] = []): Promise<string[]> => {
    const agentConfig = [...(await agentConfigPaths(git, pr.baseSha)), ...also];
    commitExclude.splice(0, commitExclude.length, ...agentConfig, ...earlierSteps, ...setupCreated);
    return restoreAgentConfigFromBase(git, pr.baseSha, agentConfig);
  };
  // The restore reads the base commit, which a shallow checkout of the head lacks: fetch it first.
  await ensureMergeBase(git, pr.baseSha, pr.headSha);
  const restored = await restoreAgentConfig();
  if (restored.length) {
    log(`restored agent config files from the base branch before running agents: ${restored.join(', ')}`);
  }
  // Round 1 starts right after this restore, with no agent run in between: nothing to redo.
  let fresh = true;
  await ensureIdentity(git);
  // The git config as the action left it; anything an agent, verify command or hook writes
  // into .git/config later is undone before the push (and before every git command: config-guard.ts).
  const restoreGitConfig = await guardLocalConfig(git);
  return {
    commitExclude,
    restoreAgentConfig: () => restoreAgentConfig(),
    async afterSetup(created) {
      setupCreated.splice(0, setupCreated.length, ...created);
      // A dotenv file setup wrote is read by agent CLIs like one the PR holds (agent-config.ts).
      return restoreAgentConfig(created.filter(isTopLevelEnvFile));
    },
    async beforeRound() {
      if (!fresh) await restoreAgentConfig();
      fresh = false;
    },
    restoreGitConfig,
  };
}

const isTopLevelEnvFile = (p: string): boolean => !p.includes('/') && p.startsWith('.env');

function listSome(paths: readonly string[], max = 5): string {
  return `${paths.slice(0, max).join(', ')}${paths.length > max ? ', …' : ''}`;
}
