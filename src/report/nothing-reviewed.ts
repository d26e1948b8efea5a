// What a run that reviewed nothing says first, because no reviewer had a key or none could
// authenticate: a run for a fork's pull request gets no secrets, and without this such a run reads
// like a model failure. It says why, and what to do: for a fork PR on `pull_request`, the workflow
// that reviews fork PRs with keys (docs/tokens-and-forks.md).
import { inline } from './format.js';

/** The section of docs/tokens-and-forks.md with the fork-review workflow. */
const FORK_DOCS = { page: 'docs/tokens-and-forks.md', anchor: 'reviewing-fork-prs-with-keys' };

/**
 * The action's own docs page: its URL at the version the step runs (GitHub sets
 * GITHUB_ACTION_REPOSITORY and GITHUB_ACTION_REF for a step that runs an action from a
 * repository), else null.
 */
function actionDocsUrl(env: NodeJS.ProcessEnv, page: string, anchor: string): string | null {
  const repo = env.GITHUB_ACTION_REPOSITORY?.trim();
  if (!repo || !/^[\w.-]+\/[\w.-]+$/.test(repo)) return null;
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  const ref = encodeURIComponent(env.GITHUB_ACTION_REF?.trim() || 'HEAD');
  return `${server}/${repo}/blob/${ref}/${page}#${anchor}`;
}

export interface NothingReviewed {
  /** Why, as a sentence: "No reviewer has a key: ANTHROPIC_API_KEY is set but empty." */
  why: string;
  /** A `pull_request` run for a PR from a fork: GitHub gave it no secrets. */
  forkPullRequest: boolean;
}

/**
 * The job summary's first line (markdown; `why` may quote a CLI, so it is neutralised) and the
 * same words for the log.
 */
export function nothingReviewed(n: NothingReviewed, env: NodeJS.ProcessEnv): { line: string; log: string } {
  const url = actionDocsUrl(env, FORK_DOCS.page, FORK_DOCS.anchor);
  const hint = n.forkPullRequest
    ? (docs: string) =>
        'GitHub withholds secrets from `pull_request` runs for pull requests from forks: review them with the ' +
        `\`pull_request_target\` workflow in ${docs}, or skip them with \`if:\` as the Quick start does.`
    : () =>
        "Set each reviewer's key as a secret of the repository, and check it: a secret that does not exist " +
        "is empty, and Dependabot's pull requests get only Dependabot secrets.";
  const page = `${FORK_DOCS.page} of pr-review-loop`;
  const docs = url ? `[${page}](${url})` : `\`${page}\``;
  const line = `**pr-review-loop reviewed nothing:** ${inline(n.why, 600)} ${hint(docs)}`;
  const log = `pr-review-loop reviewed nothing: ${n.why} ${hint(url ?? page)}`;
  return { line, log };
}
