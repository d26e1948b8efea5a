// Which workflow a run id belongs to, so a hidden state is trusted only when a run of this
// very workflow wrote it. Every workflow of a repository posts as the same
// github-actions[bot], so the comment's author alone cannot tell them apart.
//
// GET /repos/{owner}/{repo}/actions/runs/{run_id} ("Get a workflow run",
// https://docs.github.com/rest/actions/workflow-runs#get-a-workflow-run) answers a run of THIS
// repository with its `workflow_id` and `path`; a run of another repository, or none, is 404.
// A GITHUB_TOKEN needs `actions: read` for it: a workflow that lists `permissions:` gets none
// unless it asks, and "restricted" default permissions give none
// (https://docs.github.com/actions/reference/github_token-reference). Without it GitHub answers
// 403, and no state is trusted: the run then reviews again instead of skipping.
import type { Octokit } from './client.js';
import type { RepoRef } from '../domain/pull-request.js';

interface RunInfo {
  workflowId: number;
  path: string;
  repository: string;
}

/** A run's workflow, or why it could not be read (GitHub's HTTP status). */
type Lookup = { ok: true; run: RunInfo } | { ok: false; status: number };

/** A database id as GitHub prints it: a positive integer, nothing else (it becomes a URL path segment). */
const RUN_ID = /^[1-9]\d{0,15}$/;

/**
 * Returns a check: why the run a state names is not a run of this run's workflow, or null when
 * it is. Cost: one request for this run (GITHUB_RUN_ID), made only when a state needs it, and
 * one per distinct run id; answers are cached for the whole run.
 */
export function createRunCheck(
  octokit: Octokit,
  repo: RepoRef,
  currentRunId: string | null,
): (runId: string) => Promise<string | null> {
  const cache = new Map<string, Promise<Lookup>>();
  const lookup = (id: string): Promise<Lookup> => {
    let found = cache.get(id);
    if (!found) cache.set(id, (found = getRun(octokit, repo, Number(id))));
    return found;
  };
  const fullName = `${repo.owner}/${repo.repo}`.toLowerCase();

  return async (runId) => {
    if (!currentRunId || !RUN_ID.test(currentRunId))
      return "this run has no GITHUB_RUN_ID to compare the state's run with";
    if (!RUN_ID.test(runId)) return `"${runId.slice(0, 40)}" is not a run id`;
    const current = await lookup(currentRunId);
    // This run surely exists: a 404 for it also means the token may not read runs.
    if (!current.ok) return failure(`this run (${currentRunId})`, current.status, current.status === 404);
    const named = await lookup(runId);
    if (!named.ok) return failure(`run ${runId}`, named.status);
    const { run } = named;
    if (run.repository.toLowerCase() !== fullName) return `run ${runId} belongs to ${run.repository}, not ${fullName}`;
    if (run.workflowId !== current.run.workflowId) return `run ${runId} is a run of another workflow (${run.path})`;
    return null;
  };
}

async function getRun(octokit: Octokit, repo: RepoRef, runId: number): Promise<Lookup> {
  try {
    const { data } = await octokit.rest.actions.getWorkflowRun({ ...repo, run_id: runId });
    return { ok: true, run: { workflowId: data.workflow_id, path: data.path, repository: data.repository.full_name } };
  } catch (e) {
    const status = (e as { status?: unknown }).status;
    // Any HTTP answer but 200 means "not verified": the safe default is to trust nothing.
    if (typeof status === 'number') return { ok: false, status };
    throw e;
  }
}

const GRANT = "give the workflow's token `actions: read` so earlier runs can be verified";

function failure(what: string, status: number, hint = false): string {
  if (status === 404) return `${what} was not found in this repository (404)${hint ? `; ${GRANT}` : ''}`;
  if (status === 403 || status === 401) return `GitHub refused to show ${what} (${status}); ${GRANT}`;
  return `GitHub could not show ${what} (${status})`;
}

export interface WorkflowIdentity {
  /** `<workflow name>/<job id>` (GITHUB_WORKFLOW, GITHUB_JOB); null outside a workflow job. */
  job: string | null;
  /** The workflow file, e.g. `.github/workflows/review.yml`, from GITHUB_WORKFLOW_REF. */
  workflow: string | null;
  /** GITHUB_RUN_ID. */
  runId: string | null;
}

/**
 * What the runner says this run is. GITHUB_WORKFLOW_REF is `<owner>/<repo>/<path>@<ref>`
 * (https://docs.github.com/actions/reference/variables-reference).
 */
export function workflowIdentity(env: NodeJS.ProcessEnv): WorkflowIdentity {
  const job = env.GITHUB_WORKFLOW || env.GITHUB_JOB ? `${env.GITHUB_WORKFLOW ?? ''}/${env.GITHUB_JOB ?? ''}` : null;
  const workflow = /^[^/]+\/[^/]+\/(.+?)@[^@]*$/.exec(env.GITHUB_WORKFLOW_REF ?? '')?.[1] ?? null;
  return {
    job,
    workflow,
    runId: env.GITHUB_RUN_ID || null,
  };
}
