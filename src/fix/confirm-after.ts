// The second half of a proven confirmation: after the fixer's change, each confirmed
// finding's test must pass, and must still be the test that failed: a fix commit that changes a
// confirmer's test file proves nothing, whatever the test says then.
import type { Git } from '../git/runner.js';
import { evidence, runTest, type ConfirmEnv } from './confirm.js';
import type { ConfirmedFinding } from '../domain/fix.js';

export interface StillFailing {
  findingId: string;
  why: string;
}

/** The blob of each confirmed test file at `rev` (null: absent), to see later whether a fix changed it. */
export async function testBlobs(
  git: Git,
  rev: string,
  confirmed: ConfirmedFinding[],
): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (const file of confirmed.flatMap((c) => c.files)) {
    if (out.has(file)) continue;
    const r = await git(['rev-parse', '--verify', '--quiet', `${rev}:${file}`], { allowFail: true });
    out.set(file, r.code === 0 ? r.stdout.trim() : null);
  }
  return out;
}

/**
 * Runs each confirmed test on the fix commit (checked out: the verified work tree). Marks the ones
 * that pass with the commit; returns those that fail, or whose test file the fix changed.
 */
export async function rerunConfirmedTests(
  env: ConfirmEnv,
  commitSha: string,
  confirmed: ConfirmedFinding[],
  before: Map<string, string | null>,
): Promise<StillFailing[]> {
  const after = await testBlobs(env.git, commitSha, confirmed);
  const failing: StillFailing[] = [];
  for (const c of confirmed) {
    const changed = c.files.find((f) => before.get(f) !== after.get(f));
    if (changed) {
      c.failedAfter = `the fix changed its test file ${changed}`;
      failing.push({ findingId: c.findingId, why: c.failedAfter });
      continue;
    }
    const run = await runTest(env, c.command);
    if (run.exitCode === 0 && !run.timedOut) {
      c.passesAfter = commitSha;
      delete c.failedAfter;
      continue;
    }
    const tail = evidence(env, run.stdout + run.stderr);
    c.failedAfter = tail;
    failing.push({ findingId: c.findingId, why: `its test \`${c.command}\` still fails:\n${tail}` });
  }
  return failing;
}
