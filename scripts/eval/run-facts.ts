// What a case's run did besides its findings, read after the action ends: whether `setup` and the
// head's test run passed before round 1 (from the report JSON), which files the loop's commits
// changed, and what the action left in the runner's checkout. A reader of the results sees from
// these whether a case ran on an installed project and whether setup's files stayed out of commits.
import { execFileSync } from 'node:child_process';

type Outcome = 'passed' | 'failed' | null;

/** What the report JSON holds of round 1's setup record (src/domain/findings.ts SetupRecord). */
interface ReportedSetup {
  setup: { ok: boolean } | null;
  headTests: { ok: boolean } | null;
  notRun?: string;
}

export interface SetupFacts {
  /** The `setup` commands on the PR head: null when setup is not set or did not run. */
  setup: Outcome;
  /** The verify commands run once on the PR head before its review: null when they did not run. */
  headTests: Outcome;
  /** Why they did not run though set, as the report says. */
  notRun: string | null;
}

export function setupFacts(report: unknown): SetupFacts {
  const rounds = (report as { result?: { rounds?: { review?: { setup?: ReportedSetup } }[] } } | null)?.result?.rounds;
  const s = rounds?.[0]?.review?.setup;
  const outcome = (r: { ok: boolean } | null | undefined): Outcome => (r ? (r.ok ? 'passed' : 'failed') : null);
  return { setup: outcome(s?.setup), headTests: outcome(s?.headTests), notRun: s?.notRun ?? null };
}

/** Untracked or ignored entries git sees in `dir` (the runner's checkout once the action ended). */
export function leftovers(dir: string): string[] {
  const out = execFileSync('git', ['status', '--porcelain', '--ignored', '--untracked-files=normal'], {
    cwd: dir,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((l) => l.startsWith('??') || l.startsWith('!!'))
    .map((l) => l.slice(3));
}
