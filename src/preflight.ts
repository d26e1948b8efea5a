// Checks that run before any agent, in the order of SPEC §2, failing fast with no PR
// action: config → prompts → PR found and open → clean work tree → at PR head → agents.
import { resolveConfig, type ResolvedConfig } from './config/repo-config.js';
import { readInputsFromEnv, validateInputs, type RawInputs } from './config/inputs.js';
import type { Octokit } from './github/client.js';
import { getTokenLogin } from './github/comments.js';
import { NothingToDoError, parsePrTarget, readEvent, repoFromEnv } from './github/context.js';
import { getCollaboratorPermission, canWrite, isBot } from './github/permissions.js';
import type { PrMeta, PrTarget, RepoRef } from './github/types.js';
import type { FailOn } from './review/consensus.js';
import type { Counts } from './review/types.js';

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
    throw e;
  }
}

/** SPEC §8: who may start a run. */
export async function checkTrigger(octokit: Octokit, repo: RepoRef, target: PrTarget, allowedBots: string[]): Promise<void> {
  const actorType = target.kind === 'issue_comment' ? target.actorType : undefined;
  if (target.actor && isBot(target.actor, actorType)) {
    if (!allowedBots.some((b) => b.toLowerCase() === target.actor.toLowerCase())) {
      throw new RefusedRun(`Refused: ${target.actor} is a bot, and bots may start a run only when listed in allowed-bots.`);
    }
    // An app is no collaborator, so GitHub reports no permission for it: being listed in
    // allowed-bots (written by the repository's own people) is its permission.
    return;
  }
  if (target.kind !== 'issue_comment') return;
  const permission = await getCollaboratorPermission(octokit, repo, target.actor);
  if (!canWrite(permission)) {
    throw new RefusedRun(`Refused: ${target.actor} has "${permission}" permission; /review-loop needs write, maintain or admin.`);
  }
}

export function checkOpen(meta: PrMeta): void {
  if (meta.merged) throw new SkipRun(`PR #${meta.number} is merged; nothing to review.`);
  if (meta.state !== 'open') throw new SkipRun(`PR #${meta.number} is closed; nothing to review.`);
}

/** Repo config from the BASE branch, so a PR cannot change the rules it is reviewed by. */
export async function loadResolvedConfig(octokit: Octokit, repo: RepoRef, raw: RawInputs, file: string, baseSha: string): Promise<ResolvedConfig> {
  let text: string | undefined;
  try {
    const { data } = await octokit.rest.repos.getContent({ ...repo, path: file, ref: baseSha });
    if (!Array.isArray(data) && data.type === 'file' && 'content' in data) text = Buffer.from(data.content, 'base64').toString('utf8');
  } catch (e) {
    if ((e as { status?: number }).status !== 404) throw e;
  }
  return resolveConfig({ inputs: raw, ...(text !== undefined ? { repoConfigText: text } : {}) });
}

export { getTokenLogin };
