// Pull request reviews with inline comments, and replies to review comments.
// What GitHub refuses, as seen in public reports (GitHub documents none of these texts):
// - a comment on a line outside the diff's hunks: 422 `{"message": "Unprocessable Entity",
//   "errors": ["Line could not be resolved"]}` (max-sixty/tend#252), and the whole review is
//   refused: nothing is saved (QwenLM/qwen-code#6711);
// - `start_line` not before `line`: 422 "pull_request_review_thread.start_line must precede the
//   end line." (mitchspano/sfdx-scan-pull-request#10);
// - a multi-line range across hunks: refused like a line outside the diff;
// - a reply to a reply: "Replies to replies are not supported" (REST docs of the replies endpoint).
import { apiError, invalidRequest, json, notFound, numberParam, route } from '../http.js';
import type { Ctx, Reply, Route } from '../http.js';
import { nodeId } from '../ids.js';
import { simpleUser } from '../shapes.js';
import type { Json } from '../shapes.js';
import type { PullState, ThreadState } from '../state.js';
import { scopeRefusal } from '../token-access.js';

const DOC = {
  create: 'https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request',
  reply: 'https://docs.github.com/rest/pulls/comments#create-a-reply-for-a-review-comment',
};

interface CommentInput {
  path: string;
  body: string;
  line?: number;
  side?: string;
  start_line?: number;
  start_side?: string;
}

/** The new-file line ranges of each file's hunks in a unified diff. */
function hunksByFile(diff: string): Map<string, [number, number][]> {
  const out = new Map<string, [number, number][]>();
  let current: [number, number][] | null = null;
  let left = 0; // lines of the current hunk still to come, old and new sides together
  for (const line of diff.split('\n')) {
    if (left > 0) {
      if (!line.startsWith('\\')) left -= line.startsWith('+') || line.startsWith('-') ? 1 : 2;
      continue;
    }
    if (line.startsWith('+++ ')) {
      const path = line.slice(4);
      current = path.startsWith('b/') ? [] : null;
      if (current) out.set(path.slice(2), current);
      continue;
    }
    const m = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!m) continue;
    const count = m[3] === undefined ? 1 : Number(m[3]);
    left = (m[1] === undefined ? 1 : Number(m[1])) + count;
    if (current && count > 0) current.push([Number(m[2]), Number(m[2]) + count - 1]);
  }
  return out;
}

const unprocessable = (error: string): Reply => apiError(422, 'Unprocessable Entity', DOC.create, { errors: [error] });

/** Why GitHub would refuse this comment, or null. */
function commentProblem(c: CommentInput, hunks: Map<string, [number, number][]>): Reply | null {
  if (typeof c.path !== 'string' || typeof c.body !== 'string') {
    return invalidRequest('No subschema in "anyOf" matched: comments need "path" and "body".', DOC.create);
  }
  if ((c.side ?? 'RIGHT') !== 'RIGHT' || (c.start_side ?? 'RIGHT') !== 'RIGHT') {
    return apiError(501, 'The fake GitHub models comments on the RIGHT side only', DOC.create);
  }
  if (typeof c.line !== 'number') return unprocessable('Line could not be resolved');
  if (c.start_line !== undefined && c.start_line >= c.line) {
    return unprocessable('pull_request_review_thread.start_line must precede the end line.');
  }
  const hunk = hunks.get(c.path)?.find(([a, b]) => c.line! >= a && c.line! <= b);
  if (!hunk) return unprocessable('Line could not be resolved');
  if (c.start_line !== undefined && c.start_line < hunk[0]) return unprocessable('Line could not be resolved');
  return null;
}

function reviewJson(
  ctx: Ctx,
  pull: PullState,
  r: { id: number; body: string; commitId: string; submittedAt: string },
): Json {
  const { urls, state } = ctx;
  const prUrl = `${urls.api}/repos/${state.fullName}/pulls/${pull.number}`;
  const html = `${urls.web}/${state.fullName}/pull/${pull.number}#pullrequestreview-${r.id}`;
  const actor = state.tokenActor();
  return {
    id: r.id,
    node_id: nodeId('PRR', r.id),
    user: simpleUser(urls, actor.login, actor.type),
    body: r.body,
    state: 'COMMENTED',
    html_url: html,
    pull_request_url: prUrl,
    _links: { html: { href: html }, pull_request: { href: prUrl } },
    submitted_at: r.submittedAt,
    commit_id: r.commitId,
    author_association: 'NONE',
  };
}

async function createReview(ctx: Ctx): Promise<Reply> {
  const n = numberParam(ctx);
  const pull = n === null ? undefined : ctx.state.pulls.get(n);
  if (!pull) return notFound(DOC.create);
  if (!ctx.state.canWrite('pull_requests')) return scopeRefusal('pull_requests=write', DOC.create);
  const input = (ctx.body ?? {}) as { body?: unknown; event?: unknown; commit_id?: unknown; comments?: unknown };
  // The action only ever comments: APPROVE and REQUEST_CHANGES are not modelled (and must not be sent).
  if (input.event !== 'COMMENT')
    return apiError(501, `The fake GitHub models event COMMENT only, not ${String(input.event)}`, DOC.create);
  const comments = (Array.isArray(input.comments) ? input.comments : []) as CommentInput[];
  const body = typeof input.body === 'string' ? input.body : '';
  // "body: Required when using REQUEST_CHANGES or COMMENT" (REST docs); with inline comments an
  // empty body is accepted (hubtty#128).
  if (!body && comments.length === 0) return unprocessable('Body is required for a review without comments');
  const data = await ctx.data.load(pull);
  const hunks = hunksByFile(data.diff);
  for (const c of comments) {
    const problem = commentProblem(c, hunks);
    if (problem) return problem;
  }
  const commitId = typeof input.commit_id === 'string' ? input.commit_id : data.headSha;
  const actor = ctx.state.tokenActor();
  const review = ctx.state.addReview(pull.number, {
    login: actor.login,
    state: 'COMMENTED',
    body,
    commitId,
    authorAssociation: 'NONE',
  });
  for (const c of comments) {
    const thread = ctx.state.addThread(pull.number, {
      path: c.path,
      line: c.line ?? null,
      startLine: c.start_line ?? null,
      comments: [{ body: c.body, author: actor.login, authorAssociation: 'NONE' }],
    });
    Object.assign(thread.comments[0]!, { reviewId: review.id, commitId });
  }
  return json(200, reviewJson(ctx, pull, { id: review.id, body, commitId, submittedAt: review.submittedAt }));
}

/** A review comment as REST shows it (pull-request-review-comment). */
function reviewCommentJson(ctx: Ctx, thread: ThreadState, index: number): Json {
  const { urls, state } = ctx;
  const c = thread.comments[index]!;
  const first = thread.comments[0]!;
  const repoApi = `${urls.api}/repos/${state.fullName}`;
  const url = `${repoApi}/pulls/comments/${c.databaseId}`;
  const html = `${urls.web}/${state.fullName}/pull/${thread.prNumber}#discussion_r${c.databaseId}`;
  const prUrl = `${repoApi}/pulls/${thread.prNumber}`;
  const login = c.author ?? 'ghost';
  const commit = c.commitId ?? first.commitId ?? '0'.repeat(40);
  return {
    url,
    pull_request_review_id: c.reviewId ?? first.reviewId ?? null,
    id: c.databaseId,
    node_id: c.id,
    diff_hunk: '@@',
    path: thread.path,
    position: thread.line,
    original_position: thread.line,
    commit_id: commit,
    original_commit_id: commit,
    ...(index > 0 ? { in_reply_to_id: first.databaseId } : {}),
    user: simpleUser(urls, login, login.endsWith('[bot]') ? 'Bot' : 'User'),
    body: c.body,
    created_at: c.createdAt,
    updated_at: c.createdAt,
    html_url: html,
    pull_request_url: prUrl,
    author_association: c.authorAssociation,
    _links: { self: { href: url }, html: { href: html }, pull_request: { href: prUrl } },
    start_line: thread.startLine,
    original_start_line: thread.startLine,
    ...(thread.startLine ? { start_side: 'RIGHT' } : {}),
    line: thread.line ?? undefined,
    original_line: thread.line ?? undefined,
    side: 'RIGHT',
    subject_type: 'line',
  };
}

function createReply(ctx: Ctx): Reply {
  const n = numberParam(ctx);
  const id = numberParam(ctx, 'comment_id');
  if (n === null || id === null || !ctx.state.pulls.has(n)) return notFound(DOC.reply);
  if (!ctx.state.canWrite('pull_requests')) return scopeRefusal('pull_requests=write', DOC.reply);
  const found = ctx.state.findReviewComment(id);
  if (!found || found.thread.prNumber !== n) return notFound(DOC.reply);
  if (found.index > 0) return unprocessable('Replies to replies are not supported');
  const body = (ctx.body as { body?: unknown } | null)?.body;
  if (typeof body !== 'string' || !body.trim()) return invalidRequest('"body" wasn\'t supplied.', DOC.reply);
  ctx.state.addReply(found.thread, ctx.state.tokenActor(), body);
  const out = reviewCommentJson(ctx, found.thread, found.thread.comments.length - 1);
  return json(201, out, { location: String(out.url) });
}

export const reviewRoutes: Route[] = [
  route('POST', '/repos/:owner/:repo/pulls/:number/reviews', createReview),
  route('POST', '/repos/:owner/:repo/pulls/:number/comments/:comment_id/replies', createReply),
];
