// Who may push and who may start a run.
import type { Octokit } from './client.js';
import type { PrMeta, RepoRef } from '../domain/pull-request.js';

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';
/** Lowest first: a role includes every one before it. */
const LEVELS: readonly Permission[] = ['none', 'read', 'triage', 'write', 'maintain', 'admin'];

/** Whether `text` names a permission level (the repository config's `decision-answerers: maintain`). */
export function isPermission(text: string): text is Permission {
  return (LEVELS as readonly string[]).includes(text);
}

/** Whether `role` includes `need`. */
function reaches(role: Permission, need: Permission): boolean {
  return LEVELS.indexOf(role) >= LEVELS.indexOf(need);
}

export function canWrite(p: Permission | null): boolean {
  return p !== null && reaches(p, 'write');
}

/** A user's role on the repository; role_name knows maintain/triage, permission does not. */
export async function getCollaboratorPermission(octokit: Octokit, repo: RepoRef, login: string): Promise<Permission> {
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: login });
    const role = (data as { role_name?: string }).role_name ?? data.permission;
    return isPermission(role) ? role : 'none';
  } catch (e) {
    if ((e as { status?: number }).status === 404) return 'none';
    throw e;
  }
}

/** Whether a person has the access asked for, with the reason when not (their role, or why it is unknown). */
export type Access = { ok: true } | { ok: false; why: string };

/**
 * Asks GitHub whether a person's role on the repository includes `need`; a failed request counts as
 * no access. `what`: what needs it ("answering"), named with `need` in the reason when it falls short.
 */
export async function accessAtLeast(
  octokit: Octokit,
  repo: RepoRef,
  login: string,
  need: Permission,
  what?: string,
): Promise<Access> {
  try {
    const role = await getCollaboratorPermission(octokit, repo, login);
    if (reaches(role, need)) return { ok: true };
    const has = role === 'none' ? `${login} has no access to the repository` : `${login} has ${role} access`;
    return { ok: false, why: what ? `${has}; ${what} needs ${need}` : has };
  } catch (e) {
    const status = (e as { status?: number }).status;
    return { ok: false, why: `GitHub did not say what permission ${login} has${status ? ` (HTTP ${status})` : ''}` };
  }
}

/** Whether a person has write access, with the reason when not. */
export function writeAccess(octokit: Octokit, repo: RepoRef, login: string): Promise<Access> {
  return accessAtLeast(octokit, repo, login, 'write');
}

/**
 * The token's own permission on the repository, from the `permissions` object GitHub adds
 * to GET /repos for the caller. The object is the authenticated USER's role: for an
 * installation token (GITHUB_TOKEN, an App token) GitHub answers every field false, `pull`
 * included, on a 200 that proves read access (lindell/multi-gitter#224, MemberJunction/MJ
 * PR #4390, ryo-ebata/cc-audit#377). So "all false" (or no object) means unknown, null, not
 * "none": a push the token may not make is refused by GitHub and reported as a rejected push.
 */
export async function getTokenRepoPermission(octokit: Octokit, repo: RepoRef): Promise<Permission | null> {
  return readPermission(octokit, repo, null);
}

/**
 * The token's permission on the fork a PR comes from. There "all false" stays "none": an
 * installation token is not installed on someone else's fork and reaches it only through
 * the author's "allow edits by maintainers", which decidePush checks.
 */
export async function getTokenForkPermission(octokit: Octokit, fork: RepoRef): Promise<Permission | null> {
  return readPermission(octokit, fork, 'none');
}

async function readPermission(octokit: Octokit, repo: RepoRef, allFalse: 'none' | null): Promise<Permission | null> {
  try {
    const { data } = await octokit.rest.repos.get({ ...repo });
    return permissionOf(data.permissions, allFalse);
  } catch (e) {
    if ((e as { status?: number }).status === 404) return 'none';
    throw e;
  }
}

type RepoPermissions = { admin?: boolean; maintain?: boolean; push?: boolean; triage?: boolean; pull?: boolean };

/** `allFalse`: what a block with every field false means to the caller (see above). */
export function permissionOf(p: RepoPermissions | undefined, allFalse: 'none' | null): Permission | null {
  if (!p) return null;
  if (p.admin) return 'admin';
  if (p.maintain) return 'maintain';
  if (p.push) return 'write';
  if (p.triage) return 'triage';
  return p.pull ? 'read' : allFalse;
}

export interface PushDecisionInput {
  mode: 'fix' | 'review';
  meta: PrMeta;
  allowForkFixes: boolean;
  /** The token's permission on the base repository (null: GitHub did not say). */
  tokenPermission: Permission | null;
  /** For a fork PR: the token's permission on the head repository. */
  headPermission?: Permission | null;
  /** For a fork PR: the URL the fix would be pushed to, or null when it cannot be derived. */
  forkPushUrl?: string | null;
  /** Why the token is known to be read-only (read-only-token.ts), if it is. */
  readOnlyToken?: string | null;
}

/** canPush and, when false, the reason the run is review-only. */
export function decidePush(input: PushDecisionInput): { canPush: boolean; reason: string | null } {
  if (input.readOnlyToken) return { canPush: false, reason: `the token is read-only: ${input.readOnlyToken}` };
  if (input.mode === 'review') return { canPush: false, reason: 'mode is "review"' };
  const fork = input.meta.headRepoFullName.toLowerCase() !== input.meta.baseRepoFullName.toLowerCase();
  if (fork && !input.allowForkFixes) {
    return {
      canPush: false,
      reason:
        `the PR comes from a fork (${input.meta.headRepoFullName || 'deleted repository'}); ` +
        'set allow-fork-fixes to push there',
    };
  }
  if (fork) {
    if (!input.meta.headRepoFullName) return { canPush: false, reason: 'the fork the PR comes from was deleted' };
    if (!input.forkPushUrl)
      return {
        canPush: false,
        reason: `the URL of the fork ${input.meta.headRepoFullName} cannot be derived from origin's URL`,
      };
    // Pushing to someone else's fork needs write there, or the author's "allow edits by
    // maintainers" together with write on the base repository.
    const viaMaintainer =
      input.meta.maintainerCanModify && input.tokenPermission !== null && canWrite(input.tokenPermission);
    if (input.headPermission != null && !canWrite(input.headPermission) && !viaMaintainer) {
      return {
        canPush: false,
        reason:
          `the token cannot push to the fork ${input.meta.headRepoFullName}, ` +
          'and the author does not allow edits by maintainers',
      };
    }
    return { canPush: true, reason: null };
  }
  if (input.tokenPermission !== null && !canWrite(input.tokenPermission)) {
    return {
      canPush: false,
      reason: `the token has "${input.tokenPermission}" permission; pushing needs write, maintain or admin`,
    };
  }
  return { canPush: true, reason: null };
}

export function isBot(login: string, type: string | undefined): boolean {
  return type === 'Bot' || login.endsWith('[bot]');
}
