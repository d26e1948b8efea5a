// The CI of a commit through the REST API: its check runs (every attempt: a job rerun on
// the same commit is a new check run with the job's name), the workflow runs that own their check
// suites (to know each check's workflow file), and a failing job's log. The log endpoint answers 302
// to a plain-text file (its link "expires after 1 minute", REST docs); Octokit follows the redirect,
// and `data` is a string or an ArrayBuffer depending on the file's content type.
import type { Octokit } from '../github/client.js';
import type { RepoRef } from '../domain/pull-request.js';

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
    id: c.id,
    name: c.name,
    status: c.status,
    conclusion: c.conclusion ?? null,
    suiteId: c.check_suite?.id ?? null,
    url: c.html_url ?? c.details_url ?? '',
  }));
}

export interface WorkflowRun {
  id: number;
  path: string;
  suiteId: number;
  /** The run has ended: every job it will ever have has a check run. */
  completed: boolean;
}

/** The Actions runs of a commit: each check suite's workflow file, and whether its run has ended. */
export async function workflowRuns(octokit: Octokit, repo: RepoRef, sha: string): Promise<WorkflowRun[]> {
  const query = { ...repo, head_sha: sha, per_page: 100 };
  const runs = await octokit.paginate(octokit.rest.actions.listWorkflowRunsForRepo, query);
  return runs.map((r) => ({
    id: r.id,
    path: r.path,
    suiteId: r.check_suite_id ?? -1,
    completed: r.status === 'completed',
  }));
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
