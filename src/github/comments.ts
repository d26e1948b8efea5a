// PR comments: the only write the action makes through the API besides dispatches.
import type { Octokit } from './client.js';
import type { RepoRef } from '../domain/pull-request.js';
import { getTokenIdentity } from './identity.js';

export interface IssueComment {
  id: number;
  /** GraphQL node id (minimizeComment). */
  nodeId: string;
  body: string;
  author: string;
  authorType: string;
  createdAt: string;
  htmlUrl: string;
}

export async function listComments(octokit: Octokit, repo: RepoRef, number: number): Promise<IssueComment[]> {
  const rows = await octokit.paginate(octokit.rest.issues.listComments, {
    ...repo,
    issue_number: number,
    per_page: 100,
  });
  return rows.map(issueComment);
}

export async function postComment(
  octokit: Octokit,
  repo: RepoRef,
  number: number,
  body: string,
): Promise<IssueComment> {
  const { data } = await octokit.rest.issues.createComment({ ...repo, issue_number: number, body });
  return issueComment(data);
}

/** The fields of GitHub's issue comment that the action reads. */
function issueComment(c: {
  id: number;
  node_id: string;
  body?: string | undefined;
  user: { login: string; type: string } | null;
  created_at: string;
  html_url: string;
}): IssueComment {
  return {
    id: c.id,
    nodeId: c.node_id,
    body: c.body ?? '',
    author: c.user?.login ?? '',
    authorType: c.user?.type ?? '',
    createdAt: c.created_at,
    htmlUrl: c.html_url,
  };
}

/** The login the token posts as: one GraphQL `viewer` request, never GET /user (see identity.ts). */
export async function getTokenLogin(octokit: Octokit): Promise<string> {
  return (await getTokenIdentity(octokit)).login;
}

async function dispatchWorkflow(octokit: Octokit, repo: RepoRef, workflow: string, ref: string): Promise<void> {
  await octokit.rest.actions.createWorkflowDispatch({ ...repo, workflow_id: workflow, ref });
}

/** The dispatch-workflows input after a push: each workflow started on the pushed branch, in order. */
export async function dispatchWorkflows(
  octokit: Octokit,
  repo: RepoRef,
  workflows: readonly string[],
  ref: string,
  log: (line: string) => void,
): Promise<void> {
  for (const wf of workflows) {
    try {
      await dispatchWorkflow(octokit, repo, wf, ref);
    } catch (e) {
      const why = e instanceof Error ? e.message || e.name : String(e);
      throw new Error(`could not start workflow ${wf} on ${ref} (dispatch-workflows): ${why}; the fix was pushed`);
    }
    log(`dispatched workflow ${wf} on ${ref}`);
  }
}
