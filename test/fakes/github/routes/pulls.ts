// Pull request routes: the PR (JSON or raw diff), its files and its reviews.
import { apiError, json, notFound, numberParam, paginate, route } from '../http.js';
import type { Ctx, Reply, Route } from '../http.js';
import type { PullData } from '../pull-data.js';
import { repository, simpleUser } from '../shapes.js';
import type { Json } from '../shapes.js';
import type { PullState } from '../state.js';
import { nodeId } from '../ids.js';
import { labelJson } from './labels.js';
import { baseRepoInput } from './repos.js';

const DOC = {
  get: 'https://docs.github.com/rest/pulls/pulls#get-a-pull-request',
  files: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests-files',
  reviews: 'https://docs.github.com/rest/pulls/reviews#list-reviews-for-a-pull-request',
};

/**
 * GitHub's diff limits (https://docs.github.com/en/repositories/creating-and-managing-repositories/repository-limits):
 * "In a pull request, no total diff may exceed 20,000 lines that you can load or 1 MB of raw diff
 * data" and "The maximum number of files in a single diff is limited to 300". Past them the diff
 * media type answers 406 `too_large`; the bodies below are the ones GitHub sends, as quoted in
 * cpp-linter/cpp-linter-action#249 (files) and pascalgn/size-label-action#53 (lines). The line
 * count includes headers and context, which is why a PR of 16,559 changed lines was refused
 * there. The 1 MB limit is not modelled: its message is not documented anywhere we found.
 */
const DIFF_MAX_FILES = 300;
const DIFF_MAX_LINES = 20_000;
/** "Responses include a maximum of 3000 files." (OpenAPI description of "List pull requests files"). */
const LIST_FILES_MAX = 3000;

function diffTooLarge(data: PullData): Reply | null {
  let message: string;
  if (data.files.length > DIFF_MAX_FILES) {
    message =
      `Sorry, the diff exceeded the maximum number of files (${DIFF_MAX_FILES}). ` +
      "Consider using 'List pull requests files' API or locally cloning the repository instead.";
  } else if (lineCount(data.diff) > DIFF_MAX_LINES) {
    message = `Sorry, the diff exceeded the maximum number of lines (${DIFF_MAX_LINES})`;
  } else return null;
  return apiError(406, message, DOC.files, { errors: [{ resource: 'PullRequest', field: 'diff', code: 'too_large' }] });
}

function lineCount(diff: string): number {
  let n = 0;
  for (let i = diff.indexOf('\n'); i >= 0; i = diff.indexOf('\n', i + 1)) n++;
  return diff.length > 0 && !diff.endsWith('\n') ? n + 1 : n;
}

function findPull(ctx: Ctx): PullState | undefined {
  const n = numberParam(ctx);
  return n === null ? undefined : ctx.state.pulls.get(n);
}

function side(ctx: Ctx, pull: PullState, which: 'head' | 'base', sha: string): Json {
  const fullName = which === 'head' ? pull.headRepoFullName : ctx.state.fullName;
  const fork = fullName.toLowerCase() !== ctx.state.fullName.toLowerCase();
  const base = baseRepoInput(ctx);
  const repo = fork ? { ...base, fullName, ownerType: 'User' as const, fork: true } : base;
  const owner = fullName.split('/')[0] ?? '';
  const ref = which === 'head' ? pull.headRef : pull.baseRef;
  return {
    label: `${owner}:${ref}`,
    ref,
    sha,
    user: simpleUser(ctx.urls, owner, repo.ownerType),
    repo: repository(ctx.urls, repo),
  };
}

function pullJson(ctx: Ctx, pull: PullState, data: PullData): Json {
  const { urls, state } = ctx;
  const repoApi = `${urls.api}/repos/${state.fullName}`;
  const url = `${repoApi}/pulls/${pull.number}`;
  const html = `${urls.web}/${state.fullName}/pull/${pull.number}`;
  const issue = `${repoApi}/issues/${pull.number}`;
  const links = {
    self: url,
    html,
    issue,
    comments: `${issue}/comments`,
    review_comments: `${url}/comments`,
    review_comment: `${repoApi}/pulls/comments{/number}`,
    commits: `${url}/commits`,
    statuses: `${repoApi}/statuses/${data.headSha}`,
  };
  const threadComments = state.threads(pull.number).reduce((n, t) => n + t.comments.length, 0);
  return {
    url,
    id: pull.id,
    node_id: nodeId('PR', pull.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issue,
    commits_url: links.commits,
    review_comments_url: links.review_comments,
    review_comment_url: links.review_comment,
    comments_url: links.comments,
    statuses_url: links.statuses,
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    user: simpleUser(urls, pull.user, pull.userType),
    body: pull.body ?? null,
    milestone: null,
    labels: pull.labels.map((name) => labelJson(ctx, state.labels.get(name)!)),
    active_lock_reason: null,
    created_at: pull.createdAt,
    updated_at: pull.updatedAt,
    closed_at: pull.closedAt,
    merged_at: pull.mergedAt,
    merge_commit_sha: null,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: side(ctx, pull, 'head', data.headSha),
    base: side(ctx, pull, 'base', data.baseSha),
    _links: Object.fromEntries(Object.entries(links).map(([k, href]) => [k, { href }])),
    author_association: pull.authorAssociation ?? 'CONTRIBUTOR',
    auto_merge: null,
    draft: pull.draft ?? false,
    merged: pull.merged ?? false,
    mergeable: pull.state === 'open' ? true : null,
    rebaseable: pull.state === 'open' ? true : null,
    mergeable_state: pull.state === 'open' ? 'clean' : 'unknown',
    merged_by: pull.merged ? simpleUser(urls, state.owner) : null,
    comments: state.comments(pull.number).length,
    review_comments: threadComments,
    maintainer_can_modify: Boolean(pull.maintainerCanModify),
    commits: data.commits,
    additions: sum(data, 'additions'),
    deletions: sum(data, 'deletions'),
    changed_files: data.files.length,
  };
}

const sum = (data: PullData, key: 'additions' | 'deletions'): number => data.files.reduce((n, f) => n + f[key], 0);

async function getPull(ctx: Ctx): Promise<Reply> {
  const pull = findPull(ctx);
  if (!pull) return notFound(DOC.get);
  const data = await ctx.data.load(pull);
  const accept = ctx.headers.accept ?? '';
  if (/application\/vnd\.github(\.v3)?\.diff/.test(accept)) {
    const refused = diffTooLarge(data);
    if (refused) return refused;
    // The charset suffix makes Octokit read the body as text.
    return {
      status: 200,
      headers: { 'content-type': 'application/vnd.github.v3.diff; charset=utf-8' },
      body: data.diff,
    };
  }
  if (/application\/vnd\.github(\.v3)?\.patch/.test(accept)) {
    return apiError(415, 'Unsupported media type: the fake GitHub serves diffs, not patches', DOC.get);
  }
  return json(200, pullJson(ctx, pull, data));
}

async function listFiles(ctx: Ctx): Promise<Reply> {
  const pull = findPull(ctx);
  if (!pull) return notFound(DOC.files);
  const data = await ctx.data.load(pull);
  const { urls, state } = ctx;
  // GitHub stops the list at 3,000 files, however many the PR changes.
  const entries = data.files.slice(0, LIST_FILES_MAX).map((f) => {
    const path = f.filename.split('/').map(encodeURIComponent).join('/');
    return {
      sha: f.sha,
      filename: f.filename,
      status: f.status,
      additions: f.additions,
      deletions: f.deletions,
      changes: f.additions + f.deletions,
      blob_url: `${urls.web}/${state.fullName}/blob/${data.headSha}/${path}`,
      raw_url: `${urls.web}/${state.fullName}/raw/${data.headSha}/${path}`,
      contents_url: `${urls.api}/repos/${state.fullName}/contents/${path}?ref=${data.headSha}`,
      ...(f.patch !== undefined ? { patch: f.patch } : {}),
      ...(f.previousFilename ? { previous_filename: f.previousFilename } : {}),
    };
  });
  return paginate(ctx, entries);
}

async function listReviews(ctx: Ctx): Promise<Reply> {
  const pull = findPull(ctx);
  if (!pull) return notFound(DOC.reviews);
  const { headSha } = await ctx.data.shas(pull);
  const { urls, state } = ctx;
  const prUrl = `${urls.api}/repos/${state.fullName}/pulls/${pull.number}`;
  const reviews = state.reviews(pull.number).map((r) => {
    const html = `${urls.web}/${state.fullName}/pull/${pull.number}#pullrequestreview-${r.id}`;
    return {
      id: r.id,
      node_id: nodeId('PRR', r.id),
      user: simpleUser(urls, r.user.login, r.user.type),
      body: r.body,
      state: r.state,
      html_url: html,
      pull_request_url: prUrl,
      _links: { html: { href: html }, pull_request: { href: prUrl } },
      ...(r.state === 'PENDING' ? {} : { submitted_at: r.submittedAt }),
      commit_id: r.commitId ?? headSha,
      author_association: r.authorAssociation,
    };
  });
  return paginate(ctx, reviews);
}

export const pullRoutes: Route[] = [
  route('GET', '/repos/:owner/:repo/pulls/:number', getPull),
  route('GET', '/repos/:owner/:repo/pulls/:number/files', listFiles),
  route('GET', '/repos/:owner/:repo/pulls/:number/reviews', listReviews),
];
