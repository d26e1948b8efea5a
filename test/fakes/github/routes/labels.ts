// Labels on a PR (the converged-label input). GitHub creates a label the repository lacks when
// it is added to an issue, grey (`ededed`) and without a description (github/docs#35718);
// labelling a PR needs pull-requests: write, and creating the label issues: write too.
// Removing a label the issue does not carry is 404 "Label does not exist".
import { apiError, invalidRequest, json, notFound, numberParam, route } from '../http.js';
import type { Ctx, Reply, Route } from '../http.js';
import { nodeId } from '../ids.js';
import type { Json } from '../shapes.js';
import type { LabelState } from '../state.js';
import { scopeRefusal } from '../token-access.js';

const DOC = {
  add: 'https://docs.github.com/rest/issues/labels#add-labels-to-an-issue',
  remove: 'https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue',
};

export function labelJson(ctx: Ctx, l: LabelState): Json {
  const url = `${ctx.urls.api}/repos/${ctx.state.fullName}/labels/${encodeURIComponent(l.name)}`;
  return {
    id: l.id,
    node_id: nodeId('LA', l.id),
    url,
    name: l.name,
    description: l.description,
    color: l.color,
    default: false,
  };
}

const onPull = (ctx: Ctx, n: number): Json[] =>
  ctx.state.requirePull(n).labels.map((name) => labelJson(ctx, ctx.state.labels.get(name)!));

function addLabels(ctx: Ctx): Reply {
  const n = numberParam(ctx);
  if (n === null || !ctx.state.pulls.has(n)) return notFound(DOC.add);
  const labels = (ctx.body as { labels?: unknown } | null)?.labels;
  if (!Array.isArray(labels) || !labels.every((l): l is string => typeof l === 'string' && l.trim() !== '')) {
    return invalidRequest('"labels" must be a list of label names.', DOC.add);
  }
  if (!ctx.state.canWrite('pull_requests')) return scopeRefusal('issues=write; pull_requests=write', DOC.add);
  const missing = labels.filter((l) => ![...ctx.state.labels.keys()].some((k) => k.toLowerCase() === l.toLowerCase()));
  if (missing.length && !ctx.state.canWrite('issues')) return scopeRefusal('issues=write', DOC.add);
  for (const l of labels) ctx.state.addLabel(n, l);
  return json(200, onPull(ctx, n));
}

function removeLabel(ctx: Ctx): Reply {
  const n = numberParam(ctx);
  if (n === null || !ctx.state.pulls.has(n)) return notFound(DOC.remove);
  if (!ctx.state.canWrite('pull_requests')) return scopeRefusal('issues=write; pull_requests=write', DOC.remove);
  if (!ctx.state.removeLabel(n, decodeURIComponent(ctx.params.name ?? '')))
    return apiError(404, 'Label does not exist', DOC.remove);
  return json(200, onPull(ctx, n));
}

export const labelRoutes: Route[] = [
  route('POST', '/repos/:owner/:repo/issues/:number/labels', addLabels),
  route('DELETE', '/repos/:owner/:repo/issues/:number/labels/:name', removeLabel),
];
