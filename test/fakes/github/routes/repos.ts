// Repository-level routes: the repo itself, a user's permission, file contents, and the
// token's own identity.
import { apiError, json, notFound, route } from '../http.js';
import type { Ctx, Reply, Route } from '../http.js';
import { fullRepository, simpleUser } from '../shapes.js';
import type { Json, RepoInput } from '../shapes.js';
import type { Permission } from '../types.js';

const DOC = {
  repo: 'https://docs.github.com/rest/repos/repos#get-a-repository',
  permission: 'https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user',
  contents: 'https://docs.github.com/rest/repos/contents#get-repository-content',
  user: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
};

/**
 * The block describes the authenticated USER's role. An installation token (GITHUB_TOKEN, an
 * App token) has no user, so GitHub answers every field false however wide its grant, even
 * on this 200 (lindell/multi-gitter#224, MemberJunction/MJ#4390, ryo-ebata/cc-audit#377).
 */
const INSTALLATION_PERMISSIONS = { admin: false, maintain: false, push: false, triage: false, pull: false };

function getRepo(ctx: Ctx): Reply {
  const { state, urls } = ctx;
  const perms = state.opts.repoPermissions;
  const permissions = perms
    ? {
        admin: perms.admin,
        maintain: perms.maintain ?? perms.admin,
        push: perms.push,
        triage: perms.triage ?? perms.push,
        pull: perms.pull,
      }
    : state.opts.token && state.isInstallationToken
      ? INSTALLATION_PERMISSIONS
      : undefined;
  return json(200, fullRepository(urls, baseRepoInput(ctx), permissions));
}

export function baseRepoInput(ctx: Ctx): RepoInput {
  const { state } = ctx;
  return {
    fullName: state.fullName,
    ownerType: state.opts.ownerType ?? 'Organization',
    private: state.opts.private ?? false,
    defaultBranch: state.defaultBranch,
    fork: false,
  };
}

/** The REST `permission` field predates maintain/triage; role_name carries them. */
const LEGACY: Record<Permission, string> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read',
  none: 'none',
};
const RANK: Permission[] = ['none', 'read', 'triage', 'write', 'maintain', 'admin'];

function getPermission(ctx: Ctx): Reply {
  const login = ctx.params.username ?? '';
  const role = ctx.state.permissionOf(login);
  const at = RANK.indexOf(role);
  const permissions = { pull: at >= 1, triage: at >= 2, push: at >= 3, maintain: at >= 4, admin: at >= 5 };
  const user = {
    ...simpleUser(ctx.urls, login, login.endsWith('[bot]') ? 'Bot' : 'User'),
    permissions,
    role_name: role,
  };
  return json(200, { permission: LEGACY[role], role_name: role, user });
}

async function getContents(ctx: Ctx): Promise<Reply> {
  const { state, urls, origin } = ctx;
  const path = ctx.params.path ?? '';
  const ref = ctx.query.get('ref') || state.defaultBranch;
  const found = origin ? await origin.readPath(ref, path) : null;
  if (!found) return notFound(DOC.contents);
  const repoUrl = `${urls.api}/repos/${state.fullName}`;
  const item = (type: string, p: string, sha: string, size: number, kind: 'blob' | 'tree'): Json => {
    const self = `${repoUrl}/contents/${p}?ref=${encodeURIComponent(ref)}`;
    const git = `${repoUrl}/git/${kind}s/${sha}`;
    const html = `${urls.web}/${state.fullName}/${kind === 'blob' ? 'blob' : 'tree'}/${ref}/${p}`;
    return {
      type,
      size,
      name: p.split('/').pop() ?? p,
      path: p,
      sha,
      url: self,
      git_url: git,
      html_url: html,
      download_url: kind === 'blob' ? `${urls.web}/${state.fullName}/raw/${ref}/${p}` : null,
      _links: { self, git, html },
    };
  };
  if (found.type === 'dir') {
    const prefix = path.replace(/^\/+|\/+$/g, '');
    return json(
      200,
      (found.entries ?? []).map((e) =>
        item(e.type, prefix ? `${prefix}/${e.name}` : e.name, e.sha, e.size, e.type === 'dir' ? 'tree' : 'blob'),
      ),
    );
  }
  const content = found.content ?? Buffer.alloc(0);
  if (/application\/vnd\.github(\.v3)?\.raw/.test(ctx.headers.accept ?? '')) {
    return {
      status: 200,
      headers: { 'content-type': 'application/vnd.github.raw; charset=utf-8' },
      body: content.toString('utf8'),
    };
  }
  // GitHub wraps the base64 at 60 characters.
  const encoded = content.toString('base64').replace(/.{60}/g, '$&\n');
  return json(200, {
    ...item('file', path.replace(/^\/+/, ''), found.sha, content.length, 'blob'),
    encoding: 'base64',
    content: encoded,
  });
}

function getUser(ctx: Ctx): Reply {
  const login = ctx.state.tokenLogin;
  // What a GITHUB_TOKEN (an installation token) gets from this endpoint.
  if (!login) return apiError(403, 'Resource not accessible by integration', DOC.user);
  const stamp = '2024-01-01T00:00:00Z';
  return json(200, {
    ...simpleUser(ctx.urls, login),
    user_view_type: 'private',
    name: login,
    company: null,
    blog: '',
    location: null,
    email: null,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: 1,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: stamp,
    updated_at: stamp,
    private_gists: 0,
    total_private_repos: 0,
    owned_private_repos: 0,
    disk_usage: 0,
    collaborators: 0,
    two_factor_authentication: true,
  });
}

export const repoRoutes: Route[] = [
  route('GET', '/repos/:owner/:repo', getRepo),
  route('GET', '/repos/:owner/:repo/collaborators/:username/permission', getPermission),
  route('GET', '/repos/:owner/:repo/contents/:path+', getContents),
  route('GET', '/repos/:owner/:repo/contents', getContents),
  route('GET', '/user', getUser),
];
