// Everything a run checks and reads before it touches the checkout: prompts readable,
// which PR and who asked, the PR open and the command covering its head, then the repo config
// from the base branch, who the token is and the PR's comments, read at once.
import { apiUrlFromEnv, createClient, type Octokit } from '../github/client.js';
import { listComments, type IssueComment } from '../github/comments.js';
import { getTokenIdentity, type TokenIdentity } from '../github/identity.js';
import { getPrMeta } from '../github/pull-request.js';
import type { PrMeta, PrTarget, RepoRef } from '../domain/pull-request.js';
import type { ResolvedConfig } from '../config/repo-config.js';
import type { Config, RawInputs } from '../config/inputs.js';
import { loadPrompts, type Prompts } from '../roles/prompts.js';
import { readEvent } from '../github/event.js';
import { checkCommandCoversHead, checkOpen, checkTrigger, loadResolvedConfig, readTarget, SkipRun } from './checks.js';
import { checkReplyRun } from './reply-gate.js';

export interface StartInput {
  env: NodeJS.ProcessEnv;
  /** The inputs as given, and validated (config/inputs.ts). */
  raw: RawInputs;
  inputs: Config;
  promptsUrl: URL;
  /** The API client's retry back-off base; Octokit's own when absent. */
  retryBaseMs?: number;
  log: (line: string) => void;
}

export interface Started {
  prompts: Prompts;
  target: PrTarget;
  repo: RepoRef;
  octokit: Octokit;
  meta: PrMeta;
  config: ResolvedConfig;
  identity: TokenIdentity;
  comments: IssueComment[];
}

export async function startRun(s: StartInput): Promise<Started> {
  const { env, inputs, log } = s;
  const prompts = await loadPrompts(s.promptsUrl);
  const { target, repo } = readTarget(env, inputs.pr);
  const octokit = createClient({
    token: inputs.githubToken,
    baseUrl: apiUrlFromEnv(env),
    log,
    ...(s.retryBaseMs ? { retryAfterBaseValue: s.retryBaseMs } : {}),
  });
  await checkTrigger(octokit, repo, target, inputs.allowedBots);
  const meta = await getPrMeta(octokit, repo, target.number);
  checkOpen(meta);
  await checkCommandCoversHead(octokit, repo, target, meta, log);
  checkRedRunCoversHead(target, meta);
  // Independent reads at once: the repo config, who the token is (one GraphQL
  // `viewer` request: the login its comments carry, App tokens included), and the comments
  // that hold the memory of earlier runs.
  const [config, identity, comments] = await Promise.all([
    loadResolvedConfig(octokit, repo, s.raw, inputs.configFile, meta.baseSha),
    getTokenIdentity(octokit),
    listComments(octokit, repo, meta.number),
  ]);
  checkReplyRun(target, identity, readEvent(env));
  if (target.kind === 'workflow_run' && config.waitForChecks.length === 0) {
    throw new SkipRun(
      'A red CI run started this run, but wait-for-checks lists no check: the loop fixes only checks it is told to. ' +
        'Example:\n  with:\n    wait-for-checks: ci.yml',
    );
  }
  return { prompts, target, repo, octokit, meta, config, identity, comments };
}

/** A red CI run is about the commit it ran on: a PR that has moved on since gets no fix for it. */
function checkRedRunCoversHead(target: PrTarget, meta: PrMeta): void {
  if (target.kind !== 'workflow_run' || target.headSha === meta.headSha) return;
  throw new SkipRun(
    `The failed run of ${target.workflowPath || 'the workflow'} was on ${target.headSha.slice(0, 7)}, ` +
      `but the PR head is now ${meta.headSha.slice(0, 7)}: its CI will run again there.`,
  );
}
