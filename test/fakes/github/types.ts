// Input and record types of the fake GitHub. Plain data: tests, e2e runs and the demo
// describe a repository with these and read back what the action did.

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';
export type AuthorAssociation =
  'OWNER' | 'MEMBER' | 'COLLABORATOR' | 'CONTRIBUTOR' | 'FIRST_TIMER' | 'FIRST_TIME_CONTRIBUTOR' | 'MANNEQUIN' | 'NONE';
export type AccountType = 'User' | 'Bot' | 'Organization';
/** The token permissions the fake checks writes against (a workflow's `permissions:` keys). */
export type TokenScope = 'contents' | 'pull_requests' | 'issues';

export interface FakeReviewInput {
  login: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING';
  authorAssociation?: AuthorAssociation;
  body?: string;
  submittedAt?: string;
  /** Defaults to the PR's head sha when the review is read. */
  commitId?: string;
}

export interface FakeThreadCommentInput {
  /** GraphQL node id; generated when omitted. */
  id?: string;
  databaseId?: number;
  body: string;
  /** Login; null is a deleted account ("ghost"), which GitHub returns as author: null. */
  author: string | null;
  authorAssociation?: AuthorAssociation;
  createdAt?: string;
}

export interface FakeThreadInput {
  id?: string;
  isResolved?: boolean;
  isOutdated?: boolean;
  path: string;
  line?: number | null;
  startLine?: number | null;
  comments: FakeThreadCommentInput[];
}

export interface FakeCommentInput {
  login: string;
  type?: AccountType;
  body: string;
  authorAssociation?: AuthorAssociation;
  createdAt?: string;
}

/** A changed file, for PRs whose files are given statically (no originDir). */
export interface FakeFileInput {
  filename: string;
  status?: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  additions?: number;
  deletions?: number;
  patch?: string;
  previousFilename?: string;
}

export interface FakePullInput {
  number: number;
  title: string;
  body?: string | null;
  /** Author login. */
  user: string;
  userType?: AccountType;
  authorAssociation?: AuthorAssociation;
  state?: 'open' | 'closed';
  merged?: boolean;
  draft?: boolean;
  /** Defaults to the repository's default branch. */
  baseRef?: string;
  headRef: string;
  /** owner/name of the head repository; a fork when it differs from the base repository. */
  headRepoFullName?: string;
  /** The PR author lets maintainers push to the fork's branch. */
  maintainerCanModify?: boolean;
  /** Used when no originDir is given, or when the head branch no longer exists there. */
  headSha?: string;
  baseSha?: string;
  /** Static files and diff, used only without originDir. */
  files?: FakeFileInput[];
  diff?: string;
  reviews?: FakeReviewInput[];
  reviewThreads?: FakeThreadInput[];
  comments?: FakeCommentInput[];
  /** Label names already on the PR (they exist in the repository too). */
  labels?: string[];
}

export interface RepoPermissions {
  admin: boolean;
  maintain?: boolean;
  push: boolean;
  triage?: boolean;
  pull: boolean;
}

/**
 * Who the token is. GITHUB_TOKEN and GitHub App tokens are installation tokens: GET /user
 * refuses them, and they write as `github-actions[bot]` or `<slug>[bot]`. A user token
 * (PAT) is that user. `readOnly` is the token GitHub gives a `pull_request` job from a
 * fork: every write is refused with 403 "Resource not accessible by integration".
 */
export type FakeToken = ({ kind: 'actions' } | { kind: 'app'; slug: string } | { kind: 'user'; login: string }) & {
  readOnly?: true;
};

/** A run of a workflow in the fake repository, as `GET /repos/{o}/{r}/actions/runs/{run_id}` shows it. */
export interface FakeWorkflowRunInput {
  id: number;
  /** The workflow file, e.g. '.github/workflows/review.yml'; runs of one file share a workflow_id. */
  path: string;
  /** The workflow's `name:`; defaults to the file name. */
  name?: string;
  /** Default 'pull_request'. */
  event?: string;
  /** Defaults to a made-up sha. */
  headSha?: string;
  /** Default 'main'. */
  headBranch?: string;
}

/**
 * One entry of `GET /repos/{o}/{r}/activity`: GitHub's own record of a push, force push or
 * branch change, with the time GitHub received it (not the commit's forgeable dates).
 */
export interface FakeActivityInput {
  /** `refs/heads/<branch>` or the branch name. */
  ref: string;
  after: string;
  /** Default: the ref's previous `after`, or 40 zeros. */
  before?: string;
  /** Default: now. */
  timestamp?: string;
  /** Default 'push'. */
  activityType?: 'push' | 'force_push' | 'branch_creation' | 'branch_deletion' | 'pr_merge' | 'merge_queue_merge';
  /** Login of who pushed; null is a deleted account. Default the repository owner. */
  actor?: string | null;
}

/** One job of a workflow's run on a commit, as a test scripts the repository's CI (ci.ts). */
export interface FakeCiJob {
  /** The workflow file, e.g. '.github/workflows/ci.yml'. */
  workflow: string;
  /** The job's name, which is also its check run's name. */
  job: string;
  /** success, failure, cancelled, timed_out, … (GitHub's check run conclusions). */
  conclusion: string;
  /** The job's log (plain lines; the fake puts GitHub's timestamps in front). */
  log?: string;
  /** Conclusions of earlier attempts of this job on the same commit (a rerun), oldest first. */
  earlier?: string[];
  /** How many check-run queries see it still in progress. */
  pendingPolls?: number;
}

export interface FakeGitHubOptions {
  owner: string;
  repo: string;
  /** Default 'main'. */
  defaultBranch?: string;
  ownerType?: 'User' | 'Organization';
  private?: boolean;
  pulls?: FakePullInput[];
  /** Bare repository acting as the base repo: PR shas, files, diffs and contents are read live from it. */
  originDir?: string;
  /**
   * Bare repositories of forks by owner/name. A fork PR's head is read from the fork's branch
   * and mirrored into origin's refs/pull/N/head on every read, as GitHub does after a push.
   */
  forkDirs?: Record<string, string>;
  /** login -> permission; anyone else is 'none'. */
  collaborators?: Record<string, Permission>;
  /** Identity behind the token; unset behaves like GITHUB_TOKEN (GET /user is 403, comments by github-actions[bot]). */
  tokenLogin?: string;
  /** Identity and write access of the token; wins over tokenLogin when both are given. */
  token?: FakeToken;
  /**
   * What the workflow's `permissions:` grant the token (GITHUB_TOKEN, App installation tokens);
   * unset: write to all three. GitHub refuses a write the token lacks with 403 (REST) or a
   * FORBIDDEN error (GraphQL) "Resource not accessible by integration" (token-access.ts).
   */
  tokenPermissions?: Partial<Record<TokenScope, 'read' | 'write'>>;
  /** The `permissions` object of GET /repos/{o}/{r}; omitted from the response when unset. */
  repoPermissions?: RepoPermissions | undefined;
  /** Workflow runs that exist; any other run id is 404. Tests add more with state.addWorkflowRun. */
  workflowRuns?: FakeWorkflowRunInput[];
  /** Known workflow files (e.g. 'ci.yml'); when given, dispatching any other workflow is 404. */
  workflows?: string[];
  /**
   * The repository's CI, per commit: which workflow jobs run and how they end. Runs appear for a
   * PR head when the fake first sees it, and for a dispatched branch head (ci.ts).
   */
  ci?: (sha: string, read: (path: string) => Promise<string | null>) => FakeCiJob[] | Promise<FakeCiJob[]>;
  /** Web host used in html_url fields. Default 'https://github.com'. */
  serverUrl?: string;
  /** Default 0 (any free port). Always bound to 127.0.0.1. */
  port?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-cased names; authorization is redacted. */
  headers: Record<string, string>;
  /** Parsed JSON when the body was JSON, the raw text otherwise, null when empty. */
  body: unknown;
  status: number;
  /** When the fake received it (ms since the epoch): shows how a client paces its requests. */
  receivedAt: number;
}

export interface RecordedDispatch {
  workflowId: string;
  ref: string;
  inputs: Record<string, unknown>;
}

export interface FailureRule {
  method?: string;
  path: RegExp;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** How many matching requests fail; default 1. */
  times?: number;
}
