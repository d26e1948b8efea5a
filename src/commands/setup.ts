// The project's installation, run by the action before the first review: the `setup` commands,
// then (verify-head) the verify commands once on each head, so the fixer works on an installed
// project and the reviewers read the tests' results without running anything themselves. Both run
// the PR's code (its install scripts, its tests) exactly as verify does: in the sandbox, with the
// token-free environment of their own variables, under one time limit for all their commands.
import type { CommandsRun } from '../domain/findings.js';
import type { PreparedCheckout } from '../git/prepare.js';
import { changedPaths, putBackAfter, putBackTrackedSince } from '../git/put-back.js';
import type { Git } from '../git/runner.js';
import { untrackedEntries } from '../git/state.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { runVerify } from './verify.js';

export interface ProjectCommands {
  git: Git;
  /** The checkout: the commands' working directory. */
  cwd: string;
  /** setup-env's environment for setup, verify-env's for the head's test run. */
  env: NodeJS.ProcessEnv;
  /** call-limits `setup=`: one limit for all the commands of one run. */
  limitMs: number;
  sandbox?: Sandbox;
  redact: (text: string) => string;
  log: (line: string) => void;
}

export interface SetupRun extends CommandsRun {
  /** The entries setup created in the checkout (untracked and ignored alike): never committed. */
  created: string[];
}

/**
 * Runs the setup commands in the checkout. What they change in tracked files is put back (the fix
 * commit holds the fixer's changes only); what they create stays, is recorded, and is left out of
 * every fix commit whatever .gitignore says (a PR can un-ignore node_modules). Then the agent
 * config is restored as before the first agent: setup runs the PR's code, which may have written
 * a CLAUDE.md, a .claude/settings.json or a .env an agent CLI would load.
 */
export async function runSetup(
  commands: readonly string[],
  p: ProjectCommands & { checkout: Pick<PreparedCheckout, 'afterSetup'> },
): Promise<SetupRun> {
  const dirty = await changedPaths(p.git);
  const untracked = new Set(await untrackedEntries(p.git));
  let created: string[] = [];
  let outcome: CommandsRun;
  try {
    // What an earlier setup wrote in HOME goes: the commands build it anew on this tree.
    await p.sandbox?.forgetSetupHome();
    outcome = await runVerify([...commands], { ...runOptions(p), what: 'setup', setupHome: 'record' });
  } finally {
    // Also when the run failed or was cancelled: what it left is PR content all the same.
    created = await settleCheckout(p, dirty, untracked);
  }
  return { ok: outcome.ok, results: outcome.results, durationMs: outcome.durationMs, created };
}

/** Tracked files put back, created entries recorded, agent config restored; returns the created entries. */
async function settleCheckout(
  p: ProjectCommands & { checkout: Pick<PreparedCheckout, 'afterSetup'> },
  dirty: ReadonlySet<string>,
  untracked: ReadonlySet<string>,
): Promise<string[]> {
  const putBack = await putBackTrackedSince(p.git, dirty);
  if (putBack.length) p.log(`setup changed tracked files; put back, never committed: ${listSome(putBack)}`);
  const created = (await untrackedEntries(p.git)).filter((e) => !untracked.has(e));
  const restored = await p.checkout.afterSetup(created);
  if (created.length) p.log(`setup created ${created.length} entries, never committed: ${listSome(created)}`);
  if (restored.length) p.log(`setup changed agent config; restored from the base branch: ${listSome(restored)}`);
  return created;
}

/**
 * The verify commands once on the head, before its review: what they leave in the checkout is put
 * back after them, as after verify (git/put-back.ts).
 */
export async function runHeadTests(commands: readonly string[], p: ProjectCommands): Promise<CommandsRun> {
  const run = () => runVerify([...commands], { ...runOptions(p), what: 'head tests' });
  const { ok, results, durationMs } = await putBackAfter(p.git, 'the head test run', p.log, run);
  return { ok, results, durationMs };
}

function runOptions(p: ProjectCommands) {
  return {
    cwd: p.cwd,
    env: p.env,
    timeoutMs: p.limitMs,
    totalMs: p.limitMs,
    redact: p.redact,
    log: p.log,
    ...(p.sandbox ? { sandbox: p.sandbox } : {}),
  };
}

function listSome(paths: readonly string[], max = 10): string {
  return paths.slice(0, max).join(', ') + (paths.length > max ? `, … (${paths.length} paths)` : '');
}
