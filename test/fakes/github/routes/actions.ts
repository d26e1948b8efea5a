// workflow_dispatch: recorded so tests can assert which workflows the action started.
import { apiError, invalidRequest, json, notFound, route } from '../http.js';
import type { Ctx, Reply, Route } from '../http.js';
import { nextId } from '../ids.js';

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
    const found = ref.startsWith('refs/') ? await ctx.origin.revParse(ref)
      : (await ctx.origin.revParse(`refs/heads/${ref}`)) ?? (await ctx.origin.revParse(`refs/tags/${ref}`));
    if (!found) return apiError(422, `No ref found for: ${ref}`, DOC);
  }
  ctx.state.dispatches.push({ workflowId, ref: body.ref, inputs: inputs as Record<string, unknown> });
  if (body.return_run_details === true) {
    const id = nextId();
    const runUrl = `${ctx.urls.api}/repos/${ctx.state.fullName}/actions/runs/${id}`;
    return json(200, { workflow_run_id: id, run_url: runUrl, html_url: `${ctx.urls.web}/${ctx.state.fullName}/actions/runs/${id}` });
  }
  return { status: 204 };
}

export const actionRoutes: Route[] = [
  route('POST', '/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches', dispatch),
];
