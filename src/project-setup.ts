// The project's installation over a run: `setup` once before the first review, again before
// verify when a fix changed what an install reads; the head's test run before each head's first
// review (or, on a head the loop pushed, the verify run that head already passed); and what each
// review and fix round is told of both (roles/setup-data.ts), with a failed setup as a check
// (ci/setup-check.ts). Setup is PR code: it runs exactly where verify may run.
import type { CiChecks } from './ci/tracker.js';
import { installInputs, SETUP_FINDING_ID, setupVerdict, type SetupVerdict } from './ci/setup-check.js';
import { runHeadTests, runSetup, type ProjectCommands } from './commands/setup.js';
import type { ResolvedConfig } from './config/repo-config.js';
import type { CommandsRun, SetupRecord } from './domain/findings.js';
import type { VerifyResult } from './domain/fix.js';
import type { PrContext } from './domain/pull-request.js';
import type { PreparedCheckout } from './git/prepare.js';
import type { Prompts } from './roles/prompts.js';
import { fixerSetupPrompt, reviewerSetupPrompt, setupContextFiles } from './roles/setup-data.js';

export interface ProjectSetupWiring extends Omit<ProjectCommands, 'env' | 'limitMs'> {
  config: Pick<ResolvedConfig, 'setup' | 'verify' | 'verifyHead' | 'callLimits' | 'ciFixAttempts'>;
  /** Why PR code may not run in this run (a fork PR without allow-fork-fixes, no isolation), or null. */
  withheld: string | null;
  setupEnv: NodeJS.ProcessEnv;
  /** verify-env's environment: the head's test run is the verify commands. */
  verifyEnv: NodeJS.ProcessEnv;
  checkout: Pick<PreparedCheckout, 'afterSetup'>;
  prompts: Prompts;
}

/** The fix attempts per check, the setup check's among them (kept across runs: ci/tracker.ts). */
type Attempts = Pick<CiChecks, 'attempts' | 'passed'>;

/** What a head's review gets: the record for its report, the verdict on a failed setup, the reviewers' part. */
interface HeadSetup {
  record: SetupRecord | null;
  verdict: SetupVerdict | null;
  contextFiles: Record<string, string>;
  prompt: string;
}

export interface ProjectSetup {
  /** Setup, once, before the first review; nothing when it is unset or withheld. */
  start(): Promise<void>;
  /** Before a head's review (`ours`: the loop pushed it; `ciOnly`: no reviewer reads the tests). */
  beforeReview(ctx: PrContext, head: { ours: boolean; ciOnly: boolean; ci: Attempts }): Promise<HeadSetup>;
  /** Before verify: setup again when the fix changed what an install reads, or setup had failed. */
  beforeVerify(changed: readonly string[]): Promise<void>;
  /** A fix round pushed `sha` after verify passed on its tree: that is the head's test run. */
  verified(sha: string, results: readonly VerifyResult[]): void;
  /** The fixer's {{installed}}, when setup is set and ran. */
  fixerPrompt(): string | undefined;
}

export function projectSetup(w: ProjectSetupWiring): ProjectSetup {
  const commands = w.config.setup;
  const verify = w.config.verify === 'none' ? [] : w.config.verify;
  const headTestsOn = w.config.verifyHead && verify.length > 0;
  const run = { ...w, limitMs: w.config.callLimits.setupMs };
  let setup: CommandsRun | null = null;
  const headTests = new Map<string, CommandsRun>();
  const install = async () => {
    const { ok, results, durationMs } = await runSetup(commands, { ...run, env: w.setupEnv });
    setup = { ok, results, durationMs };
    w.log(`setup ${ok ? 'passed' : 'failed'} in ${Math.round(durationMs / 1000)} s`);
  };
  return {
    async start() {
      if (commands.length === 0) return;
      if (w.withheld) return w.log(`setup is not run: ${w.withheld}`);
      await install();
    },
    async beforeReview(ctx, { ours, ciOnly, ci }) {
      const sha = ctx.meta.headSha;
      if (commands.length === 0 && !headTestsOn) return { record: null, verdict: null, contextFiles: {}, prompt: '' };
      const record: SetupRecord = { setup, headTests: null };
      const why = notRunReason(w.withheld, commands.length > 0, setup, headTestsOn);
      if (why) record.notRun = why;
      else if (!ciOnly && headTestsOn) {
        const cached = headTests.get(sha) ?? (await runHeadTests(verify, { ...run, env: w.verifyEnv }));
        headTests.set(sha, cached);
        record.headTests = cached;
      }
      let verdict: SetupVerdict | null = null;
      if (setup) {
        const changed = ctx.files.map((f) => f.filename);
        const attempts = ci.attempts()[SETUP_FINDING_ID] ?? 0;
        const max = w.config.ciFixAttempts;
        verdict = setupVerdict({ sha, run: setup, changed, commands, attempts, maxAttempts: max });
        if (verdict?.kind === 'environment') record.environment = true;
        if (setup.ok && ours) ci.passed(SETUP_FINDING_ID);
      }
      const prompt = reviewerSetupPrompt(w.prompts, record, commands.length > 0);
      return { record, verdict, contextFiles: setupContextFiles(record), prompt };
    },
    async beforeVerify(changed) {
      if (commands.length === 0 || w.withheld || !setup) return;
      const touched = installInputs(changed, commands);
      if (touched.length === 0 && setup.ok) return;
      w.log(`setup again before verify: the fix changed ${touched.join(', ') || 'the tree of a failed setup'}`);
      await install();
    },
    verified(sha, results) {
      if (!headTestsOn) return;
      const durationMs = results.reduce((n, r) => n + r.durationMs, 0);
      headTests.set(sha, { ok: true, results: [...results], durationMs });
    },
    fixerPrompt: () => (setup ? fixerSetupPrompt(w.prompts, setup, commands) : undefined),
  };
}

export interface InstallInput extends Omit<ProjectSetupWiring, 'withheld' | 'verifyEnv'> {
  /** The token-free environment of verify commands and hooks. */
  commandEnv: NodeJS.ProcessEnv;
  /** Why the fixer, verify commands and hooks may not run (sandbox/withheld.ts), or null. */
  prCodeWithheld: string | null;
  /** The PR comes from another repository; `config.allowForkFixes` says whether its code may run. */
  fork: boolean;
  config: ProjectSetupWiring['config'] & Pick<ResolvedConfig, 'allowForkFixes'>;
  /** The head was handled already: the run answers replies only and installs nothing. */
  skip: boolean;
}

/**
 * A phase of the run (run.ts), after the agents are ready and before the first of them starts: the
 * project installed where verify may run, on a run that reviews.
 */
export async function installProject(i: InstallInput): Promise<ProjectSetup> {
  const untrustedFork = i.fork && !i.config.allowForkFixes;
  const withheld = i.prCodeWithheld ?? (untrustedFork ? FORK_WITHHELD : null);
  const project = projectSetup({ ...i, withheld, verifyEnv: i.commandEnv });
  if (!i.skip) await project.start();
  return project;
}

/** Why setup and the head's test run do not run on a fork PR, as hooks do not (commands/hooks.ts). */
const FORK_WITHHELD =
  "they run the PR's code, and the PR comes from another repository (set allow-fork-fixes to run them)";

/** Why the head's test run does not run, though setup or it is set; null when it runs (or is off). */
function notRunReason(
  withheld: string | null,
  setupSet: boolean,
  setup: CommandsRun | null,
  headTestsOn: boolean,
): string | null {
  if (withheld) return withheld;
  if (headTestsOn && setupSet && setup && !setup.ok) return 'the tests were not run on this head: setup failed';
  return null;
}
