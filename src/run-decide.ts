// Phase two of a run (run.ts): what is read and decided before anything runs. The checkout at the
// PR head, the memory of earlier runs, whether this head was handled already and how many replies in
// the action's threads wait for an answer; and, from the event and the environment alone
// (decisions()), whether the PR is a fork's, whether only failing checks are fixed, and whether any
// reviewer has a key.
import type { IssueComment } from './github/comments.js';
import type { Octokit } from './github/client.js';
import { decisionAnswerers, type MayAnswer } from './github/answerers.js';
import { getReviewThreads, type ThreadsAndReviews } from './github/threads.js';
import type { ResolvedConfig } from './config/repo-config.js';
import type { PrMeta, PrTarget, RepoRef, ReviewThread } from './domain/pull-request.js';
import { openCheckout } from './git/prepare.js';
import type { Git } from './git/runner.js';
import { SkipRun } from './preflight/checks.js';
import { keylessModels, noReviewerHasAKey } from './preflight/keys.js';
import { readMemory, type PriorRuns } from './preflight/memory.js';
import { replyOutsideOwnThreads } from './preflight/reply-gate.js';
import { replyAnswersOnly, skipIfHandled } from './preflight/skip.js';
import { answeredDecisions } from './preflight/decision-answers.js';
import type { StateWriter } from './report/state.js';
import { recentAnswers, threadsWithinLimits } from './review/answer-limits.js';
import { repliesToAnswer } from './review/thread-replies.js';

type KeyRoles = Pick<ResolvedConfig, 'reviewers' | 'analyzer' | 'fixer' | 'gateReviewer' | 'agentConfig'>;

interface DecisionInput {
  meta: Pick<PrMeta, 'headRepoFullName' | 'baseRepoFullName'>;
  target: Pick<PrTarget, 'kind' | 'eventName'>;
  config: KeyRoles;
  env: NodeJS.ProcessEnv;
}

interface Decisions {
  /** The PR comes from another repository. */
  fork: boolean;
  /** A red CI run started the run: each round is for the failing checks only. */
  ciOnly: boolean;
  /** A fork's pull_request run: the event gives it no secrets. */
  forkPullRequest: boolean;
  /** Each model whose key variables are set but empty (preflight/keys.ts): it is not started. */
  keyless: Map<string, string[]>;
  /** Why no reviewer can review, or null; a checks-only run needs no reviewer. */
  noKeys: string | null;
}

/** What the event and the environment decide, before any request or process. */
export function decisions(d: DecisionInput): Decisions {
  const fork = d.meta.headRepoFullName.toLowerCase() !== d.meta.baseRepoFullName.toLowerCase();
  const ciOnly = d.target.kind === 'workflow_run';
  // Before any agent starts, not even a sandbox: a model without a key is not started, and with
  // no reviewer left nothing can be reviewed (a fork PR's pull_request run gets no secrets).
  const keyless = keylessModels(d.config, d.env);
  return {
    fork,
    ciOnly,
    forkPullRequest: fork && d.target.eventName === 'pull_request',
    keyless,
    noKeys: ciOnly ? null : noReviewerHasAKey(d.config, keyless),
  };
}

export interface ReadInput {
  env: NodeJS.ProcessEnv;
  cwd: string;
  log: (line: string) => void;
  /** For the checkout's fetch only; never persisted in it. */
  auth: { serverUrl: string; token: string };
  octokit: Octokit;
  repo: RepoRef;
  meta: PrMeta;
  target: PrTarget;
  config: KeyRoles & Pick<ResolvedConfig, 'failOn' | 'threadAnswers' | 'decisionAnswerers'>;
  warn: (line: string) => void;
  /** The PR's comments, read by startRun: the memory of earlier runs is in them. */
  comments: IssueComment[];
  /** The token's login: only its own marker comments are memory. */
  ownLogin: string;
}

export interface Decided extends Decisions {
  git: Git;
  prior: PriorRuns;
  writer: StateWriter;
  /**
   * This head was handled already (or a reply run finds it the last reviewed one): the run ends
   * skipped, once waiting replies are answered.
   */
  skip: SkipRun | null;
  /** Replies in the action's threads that wait for an answer and that the answer limits let through. */
  waiting: number;
  /**
   * The threads and reviews read here (null when thread answers are off): the waiting replies are
   * found and answered from them (run-agents.ts), so a reply run reads them once before it answers.
   */
  threadsRead: ThreadsAndReviews | null;
  /**
   * The same, for round 1 to take instead of reading them again; null when replies wait, since
   * answering them writes to the threads (loop-steps.ts).
   */
  threadsAtStart: ThreadsAndReviews | null;
  /**
   * Who may answer a decision, built once for the run: the `/review-loop decide` comments are judged
   * with it here, and a decision's thread dismissed in the loop (loop-steps.ts), so GitHub is asked once.
   */
  mayAnswer: MayAnswer;
}

export async function readAndDecide(r: ReadInput): Promise<Decided> {
  const { env, log, octokit, repo, meta, config, ownLogin } = r;
  const decided = decisions(r);
  // The threads first: a reply outside the action's threads ends the run before the checkout.
  const threadsRead = config.threadAnswers ? await getReviewThreads(octokit, repo, meta.number) : null;
  const outside = replyOutsideOwnThreads(r.target, threadsRead?.threads ?? null, ownLogin);
  if (outside) throw outside;
  // A clean work tree at the PR head, without persisted credentials.
  const git = await openCheckout(r.cwd, r.auth, { ...meta, fork: decided.fork }, log);
  // Memory of earlier runs: only our own marker comments, written by this workflow job.
  const { prior, writer } = await readMemory({
    env,
    octokit,
    repo,
    comments: r.comments,
    ownLogin,
    headSha: meta.headSha,
    log,
  });
  // Answers to the maintainers' decisions are read once, here: later reports keep them.
  const mayAnswer = decisionAnswerers(octokit, repo, meta, config.decisionAnswerers);
  const answers = await answeredDecisions({
    ...{ meta, mayAnswer, comments: r.comments, known: prior.decisions, askedAt: prior.decisionsAskedAt },
    ...{ log, warn: r.warn },
  });
  prior.decisions = answers.decisions;
  prior.refusedAnswers = answers.refused;
  // A head already reviewed is skipped, but replies in our threads are still answered first.
  const handled =
    r.target.kind === 'pull_request' || r.target.kind === 'thread_reply'
      ? await skipIfHandled(git, prior, meta.headSha, config.failOn).then(
          () => null,
          (e: unknown) => (e instanceof SkipRun ? e : Promise.reject(e)),
        )
      : null;
  // A reply on the last reviewed head only answers; on a new head, or while an accepted decision
  // waits to be carried out, it is a push run (the full review).
  const decisionWaits = prior.decisions.some((d) => d.answer && !d.doneIn);
  const skip = r.target.kind === 'thread_reply' && handled ? replyAnswersOnly(handled, { decisionWaits }) : handled;
  const waiting = threadsRead ? answerable(threadsRead.threads, ownLogin, prior.answered, log) : 0;
  const threadsAtStart = waiting === 0 ? threadsRead : null;
  return { ...decided, git, prior, writer, skip, waiting, threadsRead, threadsAtStart, mayAnswer };
}

/** The replies waiting in the action's threads that the answer limits let be answered this run. */
function answerable(threads: ReviewThread[], ownLogin: string, answered: number[], log: (l: string) => void): number {
  const waiting = repliesToAnswer(threads, ownLogin, new Set(answered));
  const ids = [...new Set(waiting.map((w) => w.thread.id))];
  const { answer, held } = threadsWithinLimits(ids, recentAnswers(threads, ownLogin, Date.now()));
  const count = waiting.filter((w) => answer.includes(w.thread.id)).length;
  // With some to answer, the answering step logs the same line (thread-answers.ts).
  if (held && count === 0) log(held);
  return count;
}
