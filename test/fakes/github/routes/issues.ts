// Issue comments on PRs: list (paginated) and create, authored by whoever the token is.
import { invalidRequest, json, notFound, numberParam, paginate, route, validationFailed } from '../http.js';
import type { Ctx, Reply, Route } from '../http.js';
import { nodeId } from '../ids.js';
import { simpleUser } from '../shapes.js';
import type { Json } from '../shapes.js';
import type { CommentState } from '../state.js';
import { scopeRefusal } from '../token-access.js';

const DOC = {
  list: 'https://docs.github.com/rest/issues/comments#list-issue-comments',
  create: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
};

/** GitHub refuses comment bodies longer than this. */
const MAX_COMMENT_CHARS = 65536;

function commentJson(ctx: Ctx, c: CommentState): Json {
  const { urls, state } = ctx;
  const repoApi = `${urls.api}/repos/${state.fullName}`;
  return {
    id: c.id,
    node_id: nodeId('IC', c.id),
    url: `${repoApi}/issues/comments/${c.id}`,
    html_url: `${urls.web}/${state.fullName}/pull/${c.issueNumber}#issuecomment-${c.id}`,
    body: c.body,
    user: simpleUser(urls, c.user.login, c.user.type),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    issue_url: `${repoApi}/issues/${c.issueNumber}`,
    author_association: c.authorAssociation,
    performed_via_github_app: null,
  };
}

function listComments(ctx: Ctx): Reply {
  const n = numberParam(ctx);
  if (n === null || !ctx.state.pulls.has(n)) return notFound(DOC.list);
  return paginate(
    ctx,
    ctx.state.comments(n).map((c) => commentJson(ctx, c)),
  );
}

function createComment(ctx: Ctx): Reply {
  const n = numberParam(ctx);
  if (n === null || !ctx.state.pulls.has(n)) return notFound(DOC.create);
  // "issues=write; pull_requests=write": either permission lets a token comment on a PR.
  if (!ctx.state.canWrite('issues') && !ctx.state.canWrite('pull_requests')) {
    return scopeRefusal('issues=write; pull_requests=write', DOC.create);
  }
  const input = ctx.body;
  if (typeof input !== 'object' || input === null || !('body' in input))
    return invalidRequest('"body" wasn\'t supplied.', DOC.create);
  const body = (input as { body: unknown }).body;
  if (typeof body !== 'string')
    return invalidRequest(`For 'properties/body', ${JSON.stringify(body)} is not a string.`, DOC.create);
  const problem =
    body.trim() === ''
      ? 'body cannot be blank'
      : body.length > MAX_COMMENT_CHARS
        ? `body is too long (maximum is ${MAX_COMMENT_CHARS} characters)`
        : null;
  if (problem)
    return validationFailed(
      [{ resource: 'IssueComment', code: 'custom', field: 'body', message: problem }],
      DOC.create,
    );
  const actor = ctx.state.tokenActor();
  const comment = ctx.state.addComment(n, {
    login: actor.login,
    type: actor.type,
    body,
    authorAssociation: actor.type === 'Bot' ? 'NONE' : ctx.state.associationOf(actor.login),
  });
  const out = commentJson(ctx, comment);
  return json(201, out, { location: String(out.url) });
}

export const issueRoutes: Route[] = [
  route('GET', '/repos/:owner/:repo/issues/:number/comments', listComments),
  route('POST', '/repos/:owner/:repo/issues/:number/comments', createComment),
];
