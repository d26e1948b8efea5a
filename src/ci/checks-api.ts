// The CI of a commit through the REST API (issue 12): its check runs (every attempt: a job rerun on
// the same commit is a new check run with the job's name), the workflow runs that own their check
// suites (to know each check's workflow file), and a failing job's log. The log endpoint answers 302
// to a plain-text file (its link "expires after 1 minute", REST docs); Octokit follows the redirect,
// and `data` is a string or an ArrayBuffer depending on the file's content type.
import type { Octokit } from '../github/client.js';
import type { RepoRef } from '../github/types.js';

export interface CheckRun {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  /** The check suite: for GitHub Actions, one per workflow run. */
  suiteId: number | null;
  /** `…/actions/runs/{run_id}/job/{job_id}` for an Actions job. */
  url: string;
}

export async function listCheckRuns(octokit: Octokit, repo: RepoRef, sha: string): Promise<CheckRun[]> {
  const query = { ...repo, ref: sha, filter: 'all' as const, per_page: 100 };
  const runs = await octokit.paginate(octokit.rest.checks.listForRef, query);
  return runs.map((c) => ({
    id: c.id, name: c.name, status: c.status, conclusion: c.conclusion ?? null,
    suiteId: c.check_suite?.id ?? null, url: c.html_url ?? c.details_url ?? '',
  }));
}

/** Check suite id → the workflow file of its run, for the Actions runs of a commit. */
export async function workflowFiles(octokit: Octokit, repo: RepoRef, sha: string): Promise<Map<number, string>> {
  const query = { ...repo, head_sha: sha, per_page: 100 };
  const runs = await octokit.paginate(octokit.rest.actions.listWorkflowRunsForRepo, query);
  return new Map(runs.map((r) => [r.check_suite_id ?? -1, r.path]));
}

/** The Actions job behind a check run, from its URL; null for a check of another app. */
export function jobIdOf(url: string): number | null {
  const m = /\/actions\/runs\/\d+\/job\/(\d+)/.exec(url);
  return m ? Number(m[1]) : null;
}

/** A job's log, without GitHub's timestamp in front of each line. */
export async function jobLog(octokit: Octokit, repo: RepoRef, jobId: number): Promise<string> {
  const { data } = await octokit.rest.actions.downloadJobLogsForWorkflowRun({ ...repo, job_id: jobId });
  const text = typeof data === 'string' ? data : Buffer.from(data as ArrayBuffer).toString('utf8');
  return text.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z /gm, '');
}
