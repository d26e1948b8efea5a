// Users and repositories in the exact JSON shape of GitHub's REST API (every field the
// OpenAPI description marks required), with URLs pointing at the fake itself.
import { nodeId, userId } from './ids.js';
import type { AccountType } from './types.js';

export interface Urls {
  /** The fake's own base URL, standing in for https://api.github.com. */
  api: string;
  /** Web host for html_url fields. */
  web: string;
}

export type Json = Record<string, unknown>;

export function simpleUser(u: Urls, login: string, type: AccountType = 'User'): Json {
  const url = `${u.api}/users/${encodeURIComponent(login)}`;
  const id = userId(login);
  return {
    login,
    id,
    node_id: nodeId(type === 'Bot' ? 'BOT' : type === 'Organization' ? 'O' : 'U', id),
    avatar_url: `${u.web}/avatars/u/${id}?v=4`,
    gravatar_id: '',
    url,
    html_url: type === 'Bot' ? `${u.web}/apps/${login.replace(/\[bot\]$/, '')}` : `${u.web}/${login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type,
    user_view_type: 'public',
    site_admin: false,
  };
}

export interface RepoInput {
  fullName: string;
  ownerType: AccountType;
  private: boolean;
  defaultBranch: string;
  fork: boolean;
}

const REPO_URLS: [string, string][] = [
  ['archive_url', '/{archive_format}{/ref}'],
  ['assignees_url', '/assignees{/user}'],
  ['blobs_url', '/git/blobs{/sha}'],
  ['branches_url', '/branches{/branch}'],
  ['collaborators_url', '/collaborators{/collaborator}'],
  ['comments_url', '/comments{/number}'],
  ['commits_url', '/commits{/sha}'],
  ['compare_url', '/compare/{base}...{head}'],
  ['contents_url', '/contents/{+path}'],
  ['contributors_url', '/contributors'],
  ['deployments_url', '/deployments'],
  ['downloads_url', '/downloads'],
  ['events_url', '/events'],
  ['forks_url', '/forks'],
  ['git_commits_url', '/git/commits{/sha}'],
  ['git_refs_url', '/git/refs{/sha}'],
  ['git_tags_url', '/git/tags{/sha}'],
  ['issue_comment_url', '/issues/comments{/number}'],
  ['issue_events_url', '/issues/events{/number}'],
  ['issues_url', '/issues{/number}'],
  ['keys_url', '/keys{/key_id}'],
  ['labels_url', '/labels{/name}'],
  ['languages_url', '/languages'],
  ['merges_url', '/merges'],
  ['milestones_url', '/milestones{/number}'],
  ['notifications_url', '/notifications{?since,all,participating}'],
  ['pulls_url', '/pulls{/number}'],
  ['releases_url', '/releases{/id}'],
  ['stargazers_url', '/stargazers'],
  ['statuses_url', '/statuses/{sha}'],
  ['subscribers_url', '/subscribers'],
  ['subscription_url', '/subscription'],
  ['tags_url', '/tags'],
  ['teams_url', '/teams'],
  ['trees_url', '/git/trees{/sha}'],
  ['hooks_url', '/hooks'],
];

/** The "repository" schema (as in a PR's head.repo and base.repo). */
export function repository(u: Urls, r: RepoInput): Json {
  const [owner = '', name = ''] = r.fullName.split('/');
  const url = `${u.api}/repos/${r.fullName}`;
  const host = new URL(u.web).host;
  const id = userId(r.fullName);
  const stamp = '2024-01-01T00:00:00Z';
  return {
    id,
    node_id: nodeId('R', id),
    name,
    full_name: r.fullName,
    private: r.private,
    owner: simpleUser(u, owner, r.ownerType),
    html_url: `${u.web}/${r.fullName}`,
    description: null,
    fork: r.fork,
    url,
    ...Object.fromEntries(REPO_URLS.map(([k, suffix]) => [k, url + suffix])),
    git_url: `git://${host}/${r.fullName}.git`,
    ssh_url: `git@${host}:${r.fullName}.git`,
    clone_url: `${u.web}/${r.fullName}.git`,
    svn_url: `${u.web}/${r.fullName}`,
    mirror_url: null,
    homepage: null,
    language: 'TypeScript',
    forks_count: 0,
    forks: 0,
    stargazers_count: 0,
    watchers_count: 0,
    watchers: 0,
    size: 1,
    default_branch: r.defaultBranch,
    open_issues_count: 0,
    open_issues: 0,
    is_template: false,
    topics: [],
    has_issues: true,
    has_projects: true,
    has_wiki: false,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: r.private ? 'private' : 'public',
    license: null,
    pushed_at: stamp,
    created_at: stamp,
    updated_at: stamp,
    allow_forking: true,
    web_commit_signoff_required: false,
  };
}

/** The "full-repository" schema of GET /repos/{owner}/{repo}. */
export function fullRepository(u: Urls, r: RepoInput, permissions: Json | undefined): Json {
  return {
    ...repository(u, r),
    ...(permissions ? { permissions } : {}),
    allow_rebase_merge: true,
    allow_squash_merge: true,
    allow_merge_commit: true,
    allow_auto_merge: false,
    delete_branch_on_merge: false,
    allow_update_branch: false,
    use_squash_pr_title_as_default: false,
    network_count: 0,
    subscribers_count: 0,
    ...(r.ownerType === 'Organization'
      ? { organization: simpleUser(u, r.fullName.split('/')[0] ?? '', 'Organization') }
      : {}),
  };
}
