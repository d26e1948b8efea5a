// Who may answer the maintainers' decisions (review/decision-answers.ts judges with this): a person
// with write access (or the repository config's `decision-answerers`: a higher permission level, or
// a team's members) who is neither the PR's author nor anyone who pushed to its head branch, as
// GitHub's activity log of that branch records its pushers: the change's author must not decide the
// maintainers' question about it. When the log cannot be read, nobody can be shown not to have
// pushed, so nobody may answer.
import type { Octokit } from './client.js';
import type { PrMeta, RepoRef } from '../domain/pull-request.js';
import { accessAtLeast, isPermission, type Access } from './permissions.js';

/** Logins compare without case, and a bot's GraphQL name has no `[bot]` suffix. */
const bare = (l: string) => l.toLowerCase().replace(/\[bot\]$/, '');

const status = (e: unknown): number | undefined => (e as { status?: number }).status;

/** The logins that pushed to the PR's head branch, newest 100 entries of its activity log. */
async function pushers(octokit: Octokit, meta: PrMeta): Promise<Set<string> | string> {
  const [owner = '', repo = ''] = meta.headRepoFullName.split('/');
  try {
    const { data } = await octokit.rest.repos.listActivities({
      owner,
      repo,
      ref: `refs/heads/${meta.headRef}`,
      per_page: 100,
    });
    return new Set(data.flatMap((a) => (a.actor?.login ? [bare(a.actor.login)] : [])));
  } catch (e) {
    if (status(e) !== 403 && status(e) !== 404) throw e;
    return `the activity log of ${meta.headRepoFullName} is not readable (HTTP ${status(e)}), so who pushed is unknown`;
  }
}

/** Whether a person may answer a decision; `why` says why not. */
export type MayAnswer = (login: string) => Promise<Access>;

/**
 * The check for one run, built once (run-decide.ts) and used by every step that judges an answer:
 * GitHub is asked nothing until the first answer is judged, then each request once a run (the team,
 * the branch's pushers, each person's permission). `setting`: the repository config's
 * `decision-answerers`; a team the token cannot read is a configuration error, raised by the first
 * answer judged (the run stops before any answer is taken).
 */
export function decisionAnswerers(
  octokit: Octokit,
  repo: RepoRef,
  meta: PrMeta,
  setting: string | undefined,
): MayAnswer {
  const team = setting && !isPermission(setting) ? setting.replace(/^@/, '') : null;
  let readable: Promise<void> | null = null;
  let pushed: Promise<Set<string> | string> | null = null;
  const verdicts = new Map<string, Promise<Access>>();
  const judge = async (login: string): Promise<Access> => {
    if (team) await (readable ??= checkTeamReadable(octokit, team));
    if (bare(meta.author) === bare(login)) return { ok: false, why: `${login} is the PR's author` };
    const who = await (pushed ??= pushers(octokit, meta));
    if (typeof who === 'string') return { ok: false, why: who };
    if (who.has(bare(login))) return { ok: false, why: `${login} pushed to the PR's branch` };
    if (team) return teamMember(octokit, team, login);
    return accessAtLeast(octokit, repo, login, setting && isPermission(setting) ? setting : 'write', 'answering');
  };
  return (login) => {
    const key = bare(login);
    if (!verdicts.has(key)) verdicts.set(key, judge(login));
    return verdicts.get(key)!;
  };
}

async function checkTeamReadable(octokit: Octokit, team: string): Promise<void> {
  const [org = '', slug = ''] = team.split('/');
  try {
    await octokit.rest.teams.getByName({ org, team_slug: slug });
  } catch (e) {
    throw new Error(
      `decision-answerers names the team ${team}, which this token cannot read (HTTP ${status(e) ?? '?'}): ` +
        'a GitHub App token with members: read can. Example: decision-answerers: maintain',
      { cause: e },
    );
  }
}

async function teamMember(octokit: Octokit, team: string, login: string): Promise<Access> {
  const [org = '', slug = ''] = team.split('/');
  try {
    const { data } = await octokit.rest.teams.getMembershipForUserInOrg({ org, team_slug: slug, username: login });
    return data.state === 'active' ? { ok: true } : { ok: false, why: `${login}'s membership of ${team} is pending` };
  } catch (e) {
    if (status(e) === 404) return { ok: false, why: `${login} is not a member of ${team}` };
    return { ok: false, why: `GitHub did not say whether ${login} is in ${team} (HTTP ${status(e) ?? '?'})` };
  }
}
