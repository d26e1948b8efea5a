// Regenerates the committed fixtures that come from GitHub's published descriptions:
//   test/fixtures/openapi/subset.json  response schemas of the routes the fake GitHub serves,
//                                      cut from @octokit/openapi (a 29 MB / 400 MB package we do
//                                      not want as a dependency), $refs kept resolvable inside;
//   test/fixtures/events/*.json        event payloads derived from @octokit/webhooks-examples.
// Both packages are installed with --no-save into a temporary prefix and removed afterwards.
// Usage: node scripts/refresh-fixtures.mjs [--prefix DIR] [--events-only]
//   DIR: reuse an existing install; --events-only: the event payloads only (needs only
//   @octokit/webhooks-examples in DIR).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = ['@octokit/openapi@^23', '@octokit/webhooks-examples@^7'];

/** Every operation the fake serves; test/contract validates its answers against these. */
const OPERATIONS = [
  ['get', '/repos/{owner}/{repo}'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}/files'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews'],
  ['post', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews'],
  ['post', '/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/labels'],
  ['delete', '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}'],
  ['get', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['get', '/repos/{owner}/{repo}/collaborators/{username}/permission'],
  ['get', '/repos/{owner}/{repo}/contents/{path}'],
  ['post', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches'],
  ['get', '/repos/{owner}/{repo}/actions/runs/{run_id}'],
  ['get', '/repos/{owner}/{repo}/actions/runs'],
  ['get', '/repos/{owner}/{repo}/commits/{ref}/check-runs'],
  ['get', '/repos/{owner}/{repo}/actions/jobs/{job_id}/logs'],
  ['get', '/repos/{owner}/{repo}/activity'],
  ['get', '/repos/{owner}/{repo}/commits/{ref}'],
  ['get', '/user'],
];

function install(prefix) {
  execFileSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', prefix, ...PACKAGES],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
}

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** Follows one `#/components/...` pointer. */
function deref(spec, node) {
  if (!node?.$ref) return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce((o, key) => o[key], spec);
}

/** Component schemas reachable from `roots`, transitively. */
function reachableSchemas(spec, roots) {
  const names = new Set();
  const queue = [...roots];
  while (queue.length) {
    const node = queue.pop();
    if (Array.isArray(node)) queue.push(...node);
    else if (node && typeof node === 'object') {
      const m = /^#\/components\/schemas\/(.+)$/.exec(node.$ref ?? '');
      if (m && !names.has(m[1])) {
        names.add(m[1]);
        queue.push(spec.components.schemas[m[1]]);
      }
      queue.push(...Object.values(node));
    }
  }
  return Object.fromEntries([...names].sort().map((n) => [n, spec.components.schemas[n]]));
}

function extractSubset(spec, version) {
  const operations = {};
  for (const [method, path] of OPERATIONS) {
    const op = spec.paths[path]?.[method];
    if (!op) throw new Error(`${method.toUpperCase()} ${path} is no longer in the OpenAPI description`);
    const responses = {};
    for (const [status, raw] of Object.entries(op.responses)) {
      const res = deref(spec, raw);
      // Prefer application/json; some operations list a vendor type first.
      const content = res.content?.['application/json'] ?? Object.values(res.content ?? {})[0];
      responses[status] = { description: res.description, schema: content?.schema ?? null };
    }
    operations[`${method.toUpperCase()} ${path}`] = { operationId: op.operationId, responses };
  }
  return {
    source: {
      package: '@octokit/openapi',
      version,
      file: 'generated/api.github.com.json',
      openapi: spec.openapi,
      apiVersion: spec.info?.version ?? null,
    },
    generatedBy: 'scripts/refresh-fixtures.mjs',
    operations,
    components: { schemas: reachableSchemas(spec, Object.values(operations)) },
  };
}

// ---- Event payloads -------------------------------------------------------------------
// The examples are all from Codertocat/Hello-World; ours are octo-org/demo-repo, PR 7,
// head feature/planted-bug, base main, trimmed to the fields the action reads.
const TARGET = {
  owner: 'octo-org',
  ownerId: 6811672,
  repo: 'demo-repo',
  repoId: 186853002,
  number: 7,
  head: 'feature/planted-bug',
  base: 'main',
};
const AUTHOR = 'Codertocat';
const USER_KEYS = ['login', 'id', 'node_id', 'avatar_url', 'url', 'html_url', 'type', 'site_admin'];
const REPO_KEYS = [
  'id',
  'node_id',
  'name',
  'full_name',
  'private',
  'owner',
  'html_url',
  'description',
  'fork',
  'url',
  'git_url',
  'ssh_url',
  'clone_url',
  'default_branch',
  'visibility',
];
const PR_KEYS = [
  'url',
  'id',
  'node_id',
  'html_url',
  'diff_url',
  'patch_url',
  'issue_url',
  'number',
  'state',
  'locked',
  'title',
  'user',
  'body',
  'created_at',
  'updated_at',
  'closed_at',
  'merged_at',
  'merge_commit_sha',
  'head',
  'base',
  'author_association',
  'draft',
  'merged',
  'commits',
  'additions',
  'deletions',
  'changed_files',
];
const ISSUE_KEYS = [
  'url',
  'repository_url',
  'html_url',
  'id',
  'node_id',
  'number',
  'title',
  'user',
  'state',
  'locked',
  'comments',
  'created_at',
  'updated_at',
  'closed_at',
  'author_association',
  'body',
];
const COMMENT_KEYS = [
  'url',
  'html_url',
  'issue_url',
  'id',
  'node_id',
  'user',
  'created_at',
  'updated_at',
  'author_association',
  'body',
];

const REVIEW_COMMENT_KEYS = [
  'url',
  'pull_request_review_id',
  'id',
  'node_id',
  'path',
  'commit_id',
  'original_commit_id',
  'user',
  'body',
  'created_at',
  'updated_at',
  'html_url',
  'pull_request_url',
  'author_association',
  'line',
  'side',
];

const pick = (obj, keys) => Object.fromEntries(keys.filter((k) => k in obj).map((k) => [k, obj[k]]));
/** GitHub's legacy node ids are base64 of "<len>:<Type><id>". */
const legacyNodeId = (type, id) => Buffer.from(`0${type.length}:${type}${id}`).toString('base64');

/** Applies string rewrites to every string in a JSON value. */
function rewrite(value, rules) {
  if (typeof value === 'string') return rules.reduce((s, [re, to]) => s.replace(re, to), value);
  if (Array.isArray(value)) return value.map((v) => rewrite(v, rules));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v, rules)]));
  return value;
}

function user(example, login, id, type) {
  const u = rewrite(pick(example, USER_KEYS), [[new RegExp(`\\b${example.login}\\b`, 'g'), login]]);
  return {
    ...u,
    login,
    id,
    node_id: legacyNodeId(type, id),
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    type,
  };
}

function repo(example, fullName, id, owner, fork) {
  const [, name] = fullName.split('/');
  const r = rewrite(pick(example, REPO_KEYS), [[new RegExp(example.full_name, 'g'), fullName]]);
  return {
    ...r,
    id,
    node_id: legacyNodeId('Repository', id),
    name,
    full_name: fullName,
    private: false,
    owner,
    fork,
    default_branch: TARGET.base,
  };
}

function derivePullRequest(ex, { fork }) {
  const t = TARGET;
  const org = user(ex.repository.owner, t.owner, t.ownerId, 'Organization');
  const author = user(ex.pull_request.user, AUTHOR, ex.pull_request.user.id, 'User');
  const baseRepo = repo(ex.repository, `${t.owner}/${t.repo}`, t.repoId, org, false);
  const headRepo = fork ? repo(ex.repository, `${AUTHOR}/${t.repo}`, t.repoId + 1, author, true) : baseRepo;
  const rules = [
    [new RegExp(ex.repository.full_name, 'g'), `${t.owner}/${t.repo}`],
    [/\/(pulls|pull|issues)\/\d+\b/g, `/$1/${t.number}`],
  ];
  const pr = rewrite(pick(ex.pull_request, PR_KEYS), rules);
  const branch = (side, ref, owner, r) => ({
    label: `${owner.login}:${ref}`,
    ref,
    sha: ex.pull_request[side].sha,
    user: owner,
    repo: r,
  });
  return {
    action: ex.action,
    number: t.number,
    pull_request: {
      ...pr,
      number: t.number,
      user: author,
      title: 'Add a feature (with a planted bug)',
      body: 'Please review.',
      author_association: fork ? 'CONTRIBUTOR' : 'MEMBER',
      draft: false,
      head: branch('head', t.head, fork ? author : org, headRepo),
      base: branch('base', t.base, org, baseRepo),
    },
    repository: baseRepo,
    sender: author,
  };
}

function deriveEvents(examples) {
  const find = (name, action) => {
    const found = examples
      .find((e) => e.name === name)
      ?.examples.find((x) => action === undefined || x.action === action);
    if (!found) throw new Error(`no ${name}.${action} example in @octokit/webhooks-examples`);
    return found;
  };
  const opened = derivePullRequest(find('pull_request', 'opened'), { fork: false });
  const syncEx = find('pull_request', 'synchronize');
  const sync = derivePullRequest(syncEx, { fork: false });
  const {
    base: { repo: baseRepo },
    user: author,
  } = opened.pull_request;

  // No issue_comment example is on a PR: add issue.pull_request as GitHub sends it for PRs.
  const ic = find('issue_comment', 'created');
  const issueRules = [
    [new RegExp(ic.repository.full_name, 'g'), baseRepo.full_name],
    [/\/issues\/\d+\b/g, `/issues/${TARGET.number}`],
  ];
  const prUrls = opened.pull_request;
  const issue = {
    ...rewrite(pick(ic.issue, ISSUE_KEYS), issueRules),
    number: TARGET.number,
    title: prUrls.title,
    user: author,
    html_url: prUrls.html_url,
    author_association: 'MEMBER',
    body: prUrls.body,
    pull_request: {
      url: prUrls.url,
      html_url: prUrls.html_url,
      diff_url: prUrls.diff_url,
      patch_url: prUrls.patch_url,
      merged_at: null,
    },
  };
  const comment = {
    ...rewrite(pick(ic.comment, COMMENT_KEYS), issueRules),
    user: author,
    author_association: 'MEMBER',
    body: '/review-loop',
    html_url: `${prUrls.html_url}#issuecomment-${ic.comment.id}`,
  };

  // A reply in a review thread. No example is a reply: add comment.in_reply_to_id as GitHub's
  // webhook schema describes it (github/rest-api-description,
  // webhook-pull-request-review-comment-created: "The comment ID to reply to", absent on a
  // thread's first comment), pointing at the thread's first comment (id - 1 here).
  const rc = find('pull_request_review_comment', 'created');
  const reviewPr = derivePullRequest(rc, { fork: false });
  const reviewComment = {
    ...rewrite(pick(rc.comment, REVIEW_COMMENT_KEYS), [
      [new RegExp(rc.repository.full_name, 'g'), baseRepo.full_name],
      [/\/(pulls|pull)\/\d+\b/g, `/$1/${TARGET.number}`],
    ]),
    user: author,
    author_association: 'MEMBER',
    body: 'This is intended: the callers check the sign.',
    in_reply_to_id: rc.comment.id - 1,
    commit_id: reviewPr.pull_request.head.sha,
    pull_request_url: prUrls.url,
  };

  const wd = find('workflow_dispatch');
  return {
    'pull_request.opened': opened,
    'pull_request.synchronize': { ...sync, before: syncEx.before, after: sync.pull_request.head.sha },
    'pull_request.opened.fork': derivePullRequest(find('pull_request', 'opened'), { fork: true }),
    'issue_comment.created': { action: 'created', issue, comment, repository: baseRepo, sender: author },
    'pull_request_review_comment.created': {
      action: 'created',
      comment: reviewComment,
      pull_request: reviewPr.pull_request,
      repository: baseRepo,
      sender: author,
    },
    workflow_dispatch: {
      inputs: { pr: String(TARGET.number) },
      ref: `refs/heads/${TARGET.base}`,
      repository: baseRepo,
      sender: author,
      workflow: '.github/workflows/review-loop.yml',
    },
  };
}

function writeJson(rel, value) {
  const path = join(ROOT, rel);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
  console.log(`wrote ${rel} (${Math.round(readFileSync(path).length / 1024)} KiB)`);
}

function main() {
  const at = process.argv.indexOf('--prefix');
  const given = at > 0 ? process.argv[at + 1] : undefined;
  const prefix = given ?? mkdtempSync(join(tmpdir(), 'refresh-fixtures-'));
  try {
    if (!given) install(prefix);
    const mods = join(prefix, 'node_modules', '@octokit');
    if (!process.argv.includes('--events-only')) {
      const openapiVersion = readJson(join(mods, 'openapi', 'package.json')).version;
      const spec = readJson(join(mods, 'openapi', 'generated', 'api.github.com.json'));
      writeJson('test/fixtures/openapi/subset.json', extractSubset(spec, openapiVersion));
    }

    const examplesVersion = readJson(join(mods, 'webhooks-examples', 'package.json')).version;
    const examples = readJson(join(mods, 'webhooks-examples', 'api.github.com', 'index.json'));
    const events = deriveEvents(examples);
    for (const [name, payload] of Object.entries(events)) writeJson(`test/fixtures/events/${name}.json`, payload);
    writeJson('test/fixtures/events/source.json', {
      package: '@octokit/webhooks-examples',
      version: examplesVersion,
      generatedBy: 'scripts/refresh-fixtures.mjs',
      note: 'Trimmed to the fields the action reads; owner octo-org, repo demo-repo, PR 7. Tests overwrite the shas.',
      files: Object.keys(events).map((n) => `${n}.json`),
    });
  } finally {
    if (!given) rmSync(prefix, { recursive: true, force: true });
  }
}

main();
