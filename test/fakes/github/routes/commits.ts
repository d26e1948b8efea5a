// When and what was pushed: the repository activity log (GitHub's own record of pushes, with
// the time it received them) and single commits by sha, short sha or branch.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { nodeId } from '../ids.js';
import { apiError, json, notFound, paginate, route } from '../http.js';
import type { Ctx, Reply, Route } from '../http.js';
import { simpleUser } from '../shapes.js';
import type { ActivityState } from '../state.js';

const exec = promisify(execFile);

const DOC = {
  activity: 'https://docs.github.com/rest/repos/repos#list-repository-activities',
  commit: 'https://docs.github.com/rest/commits/commits#get-a-commit',
};

const ACTIVITY_TYPES = ['push', 'force_push', 'branch_creation', 'branch_deletion', 'pr_merge', 'merge_queue_merge'];

/** `ref` may be `refs/heads/<branch>` or the branch name (GitHub's parameter description). */
const fullRef = (ref: string): string => (ref.startsWith('refs/') ? ref : `refs/heads/${ref}`);

/**
 * GitHub logs every push as it arrives; the fake reads branches live from git, so it logs a
 * branch change when it first sees it: a branch that existed when the fake started counts as
 * created a second before (it was pushed before the fake came up, and GitHub's timestamps have
 * whole seconds), a later move as a push now. Tests set exact times with state.recordPush.
 */
export const secondBefore = (iso: string): string =>
  new Date(Date.parse(iso) - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

async function noticeBranches(ctx: Ctx, refs: string[]): Promise<void> {
  const { state, origin } = ctx;
  if (!origin) return;
  for (const ref of refs) {
    const sha = await origin.revParse(ref);
    if (!sha) continue;
    const known = state.activityList.filter((a) => a.ref === ref);
    const newest = [...known].sort((a, b) => a.timestamp.localeCompare(b.timestamp)).at(-1);
    if (newest?.after === sha) continue;
    state.recordPush(
      known.length === 0
        ? { ref, after: sha, activityType: 'branch_creation', timestamp: secondBefore(state.startedAt) }
        : { ref, after: sha },
    );
  }
}

function activityJson(ctx: Ctx, a: ActivityState): Record<string, unknown> {
  return {
    id: a.id,
    node_id: nodeId('RA', a.id),
    before: a.before,
    after: a.after,
    ref: a.ref,
    timestamp: a.timestamp,
    activity_type: a.activityType,
    actor: a.actor === null ? null : simpleUser(ctx.urls, a.actor),
  };
}

async function listActivities(ctx: Ctx): Promise<Reply> {
  const { state, query } = ctx;
  const type = query.get('activity_type');
  if (type && !ACTIVITY_TYPES.includes(type)) {
    return apiError(422, `${type} is not a valid activity_type`, DOC.activity);
  }
  const ref = query.get('ref') ? fullRef(query.get('ref')!) : null;
  const branches = [...state.pulls.values()]
    .filter((p) => p.headRepoFullName.toLowerCase() === state.fullName.toLowerCase())
    .flatMap((p) => [`refs/heads/${p.headRef}`, `refs/heads/${p.baseRef}`]);
  await noticeBranches(ctx, ref ? [ref] : [...new Set(branches)]);
  const actor = query.get('actor');
  const asc = query.get('direction') === 'asc';
  const list = state.activityList
    .filter((a) => (!ref || a.ref === ref) && (!type || a.activityType === type) && (!actor || a.actor === actor))
    .sort((a, b) => (asc ? 1 : -1) * (a.timestamp.localeCompare(b.timestamp) || a.id - b.id));
  return paginate(
    ctx,
    list.map((a) => activityJson(ctx, a)),
  );
}

interface CommitFields {
  tree: string;
  parents: string[];
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
  message: string;
}

async function readCommit(gitDir: string, sha: string): Promise<CommitFields> {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const format = ['%T', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'].join('%x00');
  const { stdout } = await exec('git', ['--git-dir', gitDir, 'show', '-s', `--format=${format}`, sha], { env });
  const [tree = '', parents = '', an = '', ae = '', ad = '', cn = '', ce = '', cd = '', ...message] =
    stdout.split('\0');
  // GitHub writes git dates in UTC with a Z.
  const utc = (d: string): string => new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    tree,
    parents: parents.trim().split(' ').filter(Boolean),
    author: { name: an, email: ae, date: utc(ad) },
    committer: { name: cn, email: ce, date: utc(cd) },
    message: message.join('\0').replace(/\n+$/, ''),
  };
}

/**
 * GET commits/{ref}: a sha, an unambiguous short sha, or a branch. A short sha that matches
 * several objects is refused like an unknown one (GitHub answers 422 "No commit found for
 * SHA"; timescale/timescaledb#8102 hit it with 7-character shas).
 */
async function getCommit(ctx: Ctx): Promise<Reply> {
  const { origin, state, urls } = ctx;
  const ref = ctx.params.ref ?? '';
  const spec = /^[0-9a-f]{4,40}$/i.test(ref) ? ref : fullRef(ref.replace(/^heads\//, ''));
  const sha = origin && !ref.startsWith('-') ? await origin.revParse(spec) : null;
  if (!sha) {
    const hex = /^[0-9a-f]+$/i.test(ref);
    return hex ? apiError(422, `No commit found for SHA: ${ref}`, DOC.commit) : notFound(DOC.commit);
  }
  const c = await readCommit(origin!.dir, sha);
  const api = `${urls.api}/repos/${state.fullName}`;
  const web = `${urls.web}/${state.fullName}`;
  return json(200, {
    url: `${api}/commits/${sha}`,
    sha,
    node_id: nodeId('C', parseInt(sha.slice(0, 8), 16)),
    html_url: `${web}/commit/${sha}`,
    comments_url: `${api}/commits/${sha}/comments`,
    commit: {
      url: `${api}/git/commits/${sha}`,
      author: c.author,
      committer: c.committer,
      message: c.message,
      comment_count: 0,
      tree: { sha: c.tree, url: `${api}/git/trees/${c.tree}` },
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
    },
    // Commits by people without a GitHub account (the sandbox's test identities) carry no user.
    author: null,
    committer: null,
    parents: c.parents.map((p) => ({ sha: p, url: `${api}/commits/${p}`, html_url: `${web}/commit/${p}` })),
  });
}

export const commitRoutes: Route[] = [
  route('GET', '/repos/:owner/:repo/activity', listActivities),
  route('GET', '/repos/:owner/:repo/commits/:ref', getCommit),
];
