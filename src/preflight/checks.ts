// Checks that run before any agent, cheapest and most certain first, failing fast with no PR
// action: config → prompts → PR found and open → clean work tree → at PR head → agents.
import { resolveConfig, type ResolvedConfig } from '../config/repo-config.js';
import { readInputsFromEnv, validateInputs, type RawInputs } from '../config/inputs.js';
import type { Octokit } from '../github/client.js';
import { BadCommandError, NothingToDoError, parsePrTarget, readEvent, repoFromEnv } from '../github/event.js';
import { headArrival, resolveShortSha } from '../github/head-arrival.js';
import { getCollaboratorPermission, canWrite, isBot } from '../github/permissions.js';
import type { PrMeta, PrTarget, RepoRef } from '../domain/pull-request.js';
import type { FailOn } from '../review/consensus.js';
import type { Counts } from '../domain/findings.js';

/**
 * The run has nothing to do: status `skipped`, not a failure. `recorded` carries the finding
 * counts an earlier run recorded for this head, so a skipped rerun still enforces fail-on.
 */
export class SkipRun extends Error {
  constructor(
    message: string,
    readonly recorded?: { counts: Counts; failOn: FailOn },
  ) {
    super(message);
  }
}
/** The run was refused (who triggered it may not start one): status `skipped`, logged, nothing posted. */
export class RefusedRun extends SkipRun {}

export function readConfig(env: NodeJS.ProcessEnv): { raw: RawInputs; config: ReturnType<typeof validateInputs> } {
  const raw = readInputsFromEnv(env);
  return { raw, config: validateInputs(raw) };
}

export function readTarget(env: NodeJS.ProcessEnv, prInput: number | undefined): { target: PrTarget; repo: RepoRef } {
  const { eventName, payload } = readEvent(env);
  try {
    return { target: parsePrTarget({ eventName, payload, ...(prInput ? { prInput } : {}) }), repo: repoFromEnv(env) };
  } catch (e) {
    if (e instanceof NothingToDoError) throw new SkipRun(e.message);
    if (e instanceof BadCommandError) throw new RefusedRun(e.message);
    throw e;
  }
}

/** Who may start a run. */
export async function checkTrigger(
  octokit: Octokit,
  repo: RepoRef,
  target: PrTarget,
  allowedBots: string[],
): Promise<void> {
  const actorType = target.kind === 'issue_comment' || target.kind === 'thread_reply' ? target.actorType : undefined;
  if (target.actor && isBot(target.actor, actorType)) {
    if (!allowedBots.some((b) => b.toLowerCase() === target.actor.toLowerCase())) {
      throw new RefusedRun(
        `Refused: ${target.actor} is a bot, and bots may start a run only when listed in allowed-bots.`,
      );
    }
    // An app is no collaborator, so GitHub reports no permission for it: being listed in
    // allowed-bots (written by the repository's own people) is its permission.
    return;
  }
  if (target.kind !== 'issue_comment') return;
  const permission = await getCollaboratorPermission(octokit, repo, target.actor);
  if (!canWrite(permission)) {
    throw new RefusedRun(
      `Refused: ${target.actor} has "${permission}" permission; /review-loop needs write, maintain or admin.`,
    );
  }
}

const SHA_COMMAND = '"/review-loop <sha>" naming the head you reviewed, e.g. "/review-loop 3f9a2c1"';

/**
 * A `/review-loop` comment covers the head its author saw, never one pushed
 * after it. With a sha, that sha must be the PR head now (a short one must name exactly one
 * commit); without one, the head must have arrived before the comment was written.
 */
export async function checkCommandCoversHead(
  octokit: Octokit,
  repo: RepoRef,
  target: PrTarget,
  meta: PrMeta,
  log: (line: string) => void,
): Promise<void> {
  if (target.kind !== 'issue_comment') return;
  const head = meta.headSha.toLowerCase();
  const want = target.requestedSha;
  if (want) {
    if (!head.startsWith(want)) {
      throw new RefusedRun(
        `Refused: the comment asks to review commit ${want}, but the PR head is now ${head}: it changed after the ` +
          'command was written, so nothing was reviewed. Check the new head, then comment ' +
          SHA_COMMAND +
          '.',
      );
    }
    if (want.length < 40 && (await resolveShortSha(octokit, repo, want)) !== head) {
      throw new RefusedRun(
        `Refused: GitHub does not resolve ${want} to exactly one commit (it is ambiguous or unknown), so it cannot ` +
          `show that ${want} is the PR head ${head}. Give more digits, or the full sha of the head you reviewed.`,
      );
    }
    log(`/review-loop ${want}: the PR head ${head} is the commit the comment names`);
    return;
  }
  await checkHeadBeforeComment(octokit, repo, target.commentCreatedAt, meta, log);
}

async function checkHeadBeforeComment(
  octokit: Octokit,
  repo: RepoRef,
  commentAt: string | null,
  meta: PrMeta,
  log: (line: string) => void,
): Promise<void> {
  const head = meta.headSha;
  if (!commentAt || Number.isNaN(Date.parse(commentAt))) {
    throw new RefusedRun(
      `Refused: the issue_comment event has no valid comment.created_at ("${commentAt ?? ''}"), so the action cannot ` +
        `tell whether the PR head ${head} was pushed before the command. Comment ${SHA_COMMAND}.`,
    );
  }
  const arrival = await headArrival(octokit, repo, meta);
  if (arrival.source === 'activity-missing') {
    throw new RefusedRun(
      `Refused: GitHub's activity log for ${meta.headRef} does not show the PR head ${head} yet (newest entry: ` +
        `${arrival.newest ?? 'none'}), so the action cannot tell whether it was pushed before the /review-loop ` +
        `comment of ${commentAt}. Comment ${SHA_COMMAND}.`,
    );
  }
  if (arrival.source === 'committer-date') {
    log(`warning: ${arrival.why}; judging the head by its committer date, which whoever made the commit can set`);
  }
  const by = arrival.source === 'activity' ? "GitHub's push record" : 'its committer date';
  // GitHub's timestamps have whole seconds: a push in the comment's own second may be later.
  if (Date.parse(arrival.at) >= Date.parse(commentAt)) {
    throw new RefusedRun(
      `Refused: the PR head ${head} arrived at ${arrival.at} (${by}), not before the /review-loop comment of ` +
        `${commentAt}: the command cannot cover a head its author may not have seen. Review it, then comment ` +
        `${SHA_COMMAND}.`,
    );
  }
  log(`/review-loop: the PR head ${head} arrived at ${arrival.at} (${by}), before the comment of ${commentAt}`);
}

export function checkOpen(meta: PrMeta): void {
  if (meta.merged) throw new SkipRun(`PR #${meta.number} is merged; nothing to review.`);
  if (meta.state !== 'open') throw new SkipRun(`PR #${meta.number} is closed; nothing to review.`);
}

/** Repo config from the BASE branch, so a PR cannot change the rules it is reviewed by. */
export async function loadResolvedConfig(
  octokit: Octokit,
  repo: RepoRef,
  raw: RawInputs,
  file: string,
  baseSha: string,
): Promise<ResolvedConfig> {
  let text: string | undefined;
  try {
    const { data } = await octokit.rest.repos.getContent({ ...repo, path: file, ref: baseSha });
    if (!Array.isArray(data) && data.type === 'file' && 'content' in data)
      text = Buffer.from(data.content, 'base64').toString('utf8');
  } catch (e) {
    if ((e as { status?: number }).status !== 404) throw e;
  }
  return resolveConfig({ inputs: raw, ...(text !== undefined ? { repoConfigText: text } : {}) });
}
