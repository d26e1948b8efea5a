// Whether this run may push its fixes, and where: decided once, before the first
// round. A token the event shows is read-only pushes nothing and writes nothing at all; a fork
// PR's fixes go to the fork's URL, derived from origin's, only with allow-fork-fixes.
import { deriveForkUrl, originUrl } from '../git/fork-url.js';
import type { Git } from '../git/runner.js';
import type { Octokit } from '../github/client.js';
import { readEvent } from '../github/event.js';
import type { TokenIdentity } from '../github/identity.js';
import { decidePush, getTokenForkPermission, getTokenRepoPermission } from '../github/permissions.js';
import { readOnlyFromEvent } from '../github/read-only-token.js';
import type { PrMeta, RepoRef } from '../domain/pull-request.js';

export interface PushPlan {
  canPush: boolean;
  /** Why the run is review-only, when it cannot push. */
  reason: string | null;
  /** Why the event says the token is read-only, or null. */
  readOnlyToken: string | null;
  /** `origin`, or the fork's URL for a fork PR (a placeholder no push accepts when it is unknown). */
  remote: string;
}

export interface PushPlanInput {
  octokit: Octokit;
  repo: RepoRef;
  meta: PrMeta;
  git: Git;
  mode: 'fix' | 'review';
  allowForkFixes: boolean;
  fork: boolean;
  identity: TokenIdentity;
  env: NodeJS.ProcessEnv;
  /** Why the fixer may not run at all (sandbox/withheld.ts: no isolation under `auto`), or null. */
  fixerWithheld: string | null;
}

export async function planPush(p: PushPlanInput): Promise<PushPlan> {
  const { octokit, repo, meta, mode } = p;
  const forkFixes = p.fork && p.allowForkFixes && mode === 'fix';
  const forkPushUrl = forkFixes
    ? deriveForkUrl(await originUrl(p.git), meta.baseRepoFullName, meta.headRepoFullName)
    : null;
  const [headOwner, headName] = meta.headRepoFullName.split('/');
  const readOnlyToken = readOnlyFromEvent({ ...readEvent(p.env), identity: p.identity });
  const decision = decidePush({
    mode,
    meta,
    allowForkFixes: p.allowForkFixes,
    // Asked only when it can change the answer: a review-only run needs no permission check.
    tokenPermission: mode === 'fix' && !readOnlyToken ? await getTokenRepoPermission(octokit, repo) : null,
    readOnlyToken,
    ...(forkFixes && headOwner && headName
      ? { headPermission: await getTokenForkPermission(octokit, { owner: headOwner, repo: headName }), forkPushUrl }
      : {}),
  });
  const remote = p.fork ? (forkPushUrl ?? 'no-fork-url') : 'origin';
  if (decision.canPush && p.fixerWithheld) return { canPush: false, reason: p.fixerWithheld, readOnlyToken, remote };
  return { ...decision, readOnlyToken, remote };
}
