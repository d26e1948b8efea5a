// workflow_dispatch: recorded so tests can assert which workflows the action started.
// Workflow runs: the ones the options or tests added; any other id is 404.
import { apiError, invalidRequest, json, notFound, route } from '../http.js';
import type { Ctx, Reply, Route } from '../http.js';
import { ACTIONS_BOT, nextId, nodeId } from '../ids.js';
import { repository, simpleUser } from '../shapes.js';
import type { Json } from '../shapes.js';
import { baseRepoInput } from './repos.js';

const DOC = 'https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event';

function knownWorkflow(ctx: Ctx, workflowId: string): boolean {
  const known = ctx.state.opts.workflows;
  if (!known) return true;
  const base = (f: string): string => f.split('/').pop() ?? f;
  return known.some((w) => base(w) === base(workflowId));
}

async function dispatch(ctx: Ctx): Promise<Reply> {
  const workflowId = ctx.params.workflow_id ?? '';
  if (!knownWorkflow(ctx, workflowId)) return notFound(DOC);
  const body = (typeof ctx.body === 'object' && ctx.body !== null ? ctx.body : {}) as Record<string, unknown>;
  if (typeof body.ref !== 'string') return invalidRequest('"ref" wasn\'t supplied.', DOC);
  const inputs = body.inputs ?? {};
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) {
    return invalidRequest(`For 'properties/inputs', ${JSON.stringify(inputs)} is not an object.`, DOC);
  }
  if (ctx.origin) {
    const ref = body.ref;
    const found = ref.startsWith('refs/')
      ? await ctx.origin.revParse(ref)
      : ((await ctx.origin.revParse(`refs/heads/${ref}`)) ?? (await ctx.origin.revParse(`refs/tags/${ref}`)));
    if (!found) return apiError(422, `No ref found for: ${ref}`, DOC);
  }
  ctx.state.dispatches.push({ workflowId, ref: body.ref, inputs: inputs as Record<string, unknown> });
  // A dispatch runs that workflow on the ref's head: the one way a GITHUB_TOKEN push gets CI.
  const head = ctx.origin
    ? await ctx.origin.revParse(body.ref.startsWith('refs/') ? body.ref : `refs/heads/${body.ref}`)
    : null;
  if (head) await ctx.state.ci.trigger(head, body.ref.replace(/^refs\/heads\//, ''), 'workflow_dispatch', workflowId);
  if (body.return_run_details === true) {
    const id = nextId();
    const runUrl = `${ctx.urls.api}/repos/${ctx.state.fullName}/actions/runs/${id}`;
    return json(200, {
      workflow_run_id: id,
      run_url: runUrl,
      html_url: `${ctx.urls.web}/${ctx.state.fullName}/actions/runs/${id}`,
    });
  }
  return { status: 204 };
}

const RUN_DOC = 'https://docs.github.com/rest/actions/workflow-runs#get-a-workflow-run';

/** The "workflow-run" schema; the repository's own runs only. */
function getWorkflowRun(ctx: Ctx): Reply {
  const run = ctx.state.workflowRuns.get(Number(ctx.params.run_id));
  if (!run) return notFound(RUN_DOC);
  const { urls, state } = ctx;
  const repo = repository(urls, baseRepoInput(ctx));
  const url = `${urls.api}/repos/${state.fullName}/actions/runs/${run.id}`;
  const suite = run.id + 500_000;
  const actor = simpleUser(urls, ACTIONS_BOT.login, 'Bot');
  const headCommit: Json = {
    id: run.headSha,
    tree_id: run.headSha,
    message: 'A commit',
    timestamp: run.createdAt,
    author: { name: 'octocat', email: 'octocat@example.test' },
    committer: { name: 'octocat', email: 'octocat@example.test' },
  };
  return json(200, {
    id: run.id,
    name: run.name,
    node_id: nodeId('WFR', run.id),
    check_suite_id: suite,
    check_suite_node_id: nodeId('CS', suite),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: run.path,
    display_title: run.name,
    run_number: run.id % 1000,
    run_attempt: 1,
    referenced_workflows: [],
    event: run.event,
    status: 'completed',
    conclusion: 'success',
    workflow_id: run.workflowId,
    url,
    html_url: `${urls.web}/${state.fullName}/actions/runs/${run.id}`,
    pull_requests: [],
    created_at: run.createdAt,
    updated_at: run.createdAt,
    actor,
    triggering_actor: actor,
    run_started_at: run.createdAt,
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: `${urls.api}/repos/${state.fullName}/check-suites/${suite}`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    previous_attempt_url: null,
    workflow_url: `${urls.api}/repos/${state.fullName}/actions/workflows/${run.workflowId}`,
    head_commit: headCommit,
    repository: repo,
    head_repository: repo,
  });
}

export const actionRoutes: Route[] = [
  route('POST', '/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches', dispatch),
  route('GET', '/repos/:owner/:repo/actions/runs/:run_id', getWorkflowRun),
];
