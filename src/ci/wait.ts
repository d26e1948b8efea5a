// Waiting for the checks a round treats as a reviewer: the `wait-for-checks` entries
// (a workflow file: each of its jobs; a check name; or `all`) on one commit, until each has a
// completed check run or `checks-timeout-minutes` pass. The action's own job is never waited for.
// Names repeat across workflows and across runs on one commit, so a check is its name in its
// workflow, and its attempts are every check run of that pair, oldest first; a commit whose
// attempts of one check both failed and passed is flaky (GitHub keeps a rerun's check runs).
import type { Octokit } from '../github/client.js';
import type { RepoRef } from '../domain/pull-request.js';
import { jobIdOf, listCheckRuns, workflowRuns, type CheckRun, type WorkflowRun } from './checks-api.js';

export interface CheckResult {
  name: string;
  /** The workflow file of its run, when it is a GitHub Actions job. */
  workflow: string | null;
  /** The latest attempt's conclusion. */
  conclusion: string;
  passed: boolean;
  /** Its attempts on this commit disagree: one passed, one failed. */
  flaky: boolean;
  jobId: number | null;
}

export interface ChecksOfHead {
  sha: string;
  checks: CheckResult[];
  /** Entries still running, or with no check at all, when the time was up. */
  waiting: string[];
}

export interface WaitOptions {
  octokit: Octokit;
  repo: RepoRef;
  sha: string;
  wanted: readonly string[];
  /** This run: its own job's check run is never waited for. */
  ownRunId: string | null;
  timeoutMs: number;
  pollMs: number;
  log: (line: string) => void;
}

const PASSING = new Set(['success', 'neutral', 'skipped']);
/**
 * No verdict: a cancelled run (a newer push or `concurrency` cut it) or a stale one says nothing
 * about the code, so the entry stays open for a newer run, until the time is up.
 */
const NO_VERDICT = new Set(['cancelled', 'stale']);
const isFile = (entry: string) => /\.ya?ml$/i.test(entry);
const base = (p: string) => p.split('/').pop() ?? p;

function matches(entry: string, check: CheckRun, workflow: string | null): boolean {
  if (entry === 'all') return true;
  if (isFile(entry)) return workflow !== null && base(workflow) === base(entry);
  return check.name === entry;
}

/** The wanted checks of one look at the commit, and the entries not done yet. */
async function look(o: WaitOptions): Promise<{ checks: CheckResult[]; open: string[] }> {
  const own = o.ownRunId ? `/actions/runs/${o.ownRunId}/` : null;
  const runs = (await listCheckRuns(o.octokit, o.repo, o.sha)).filter((c) => !own || !c.url.includes(own));
  const needFiles = o.wanted.some((e) => e === 'all' || isFile(e));
  const wfRuns: WorkflowRun[] = needFiles ? await workflowRuns(o.octokit, o.repo, o.sha) : [];
  const files = new Map(wfRuns.map((r) => [r.suiteId, r.path]));
  const workflowOf = (c: CheckRun) => (c.suiteId !== null ? (files.get(c.suiteId) ?? null) : null);
  const groups = new Map<string, CheckRun[]>();
  for (const c of runs) {
    const wf = workflowOf(c);
    if (!o.wanted.some((e) => matches(e, c, wf))) continue;
    const key = `${wf ?? ''}\n${c.name}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const checks: CheckResult[] = [];
  const running: CheckRun[][] = [];
  for (const attempts of groups.values()) {
    attempts.sort((a, b) => a.id - b.id);
    const latest = attempts.at(-1)!;
    if (latest.status !== 'completed' || latest.conclusion === null || NO_VERDICT.has(latest.conclusion)) {
      running.push(attempts);
      continue;
    }
    const done = attempts.filter((a) => a.conclusion !== null);
    checks.push({
      name: latest.name,
      workflow: workflowOf(latest),
      conclusion: latest.conclusion,
      passed: PASSING.has(latest.conclusion),
      flaky: done.some((a) => PASSING.has(a.conclusion!)) && done.some((a) => !PASSING.has(a.conclusion!)),
      jobId: jobIdOf(latest.url),
    });
  }
  // An entry is open while no check matches it yet, one that does is still running, or (for a
  // workflow file) its run has not ended: a job that `needs:` another has no check run before it starts.
  const hit = (e: string, c: CheckRun) => matches(e, c, workflowOf(c));
  const others = wfRuns.filter((r) => String(r.id) !== o.ownRunId && !r.completed);
  const runOpen = (e: string) => others.some((r) => e === 'all' || (isFile(e) && base(r.path) === base(e)));
  const open = o.wanted.filter((e) => !runs.some((c) => hit(e, c)) || running.some((g) => hit(e, g[0]!)) || runOpen(e));
  return { checks, open };
}

export async function waitForChecks(o: WaitOptions): Promise<ChecksOfHead> {
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    const { checks, open } = await look(o);
    if (open.length === 0 || Date.now() + o.pollMs > deadline) {
      const sha = o.sha.slice(0, 7);
      if (open.length) o.log(`checks: still waiting for ${open.join(', ')} on ${sha} when the time was up`);
      return { sha: o.sha, checks, waiting: open };
    }
    await new Promise((r) => setTimeout(r, o.pollMs));
  }
}
