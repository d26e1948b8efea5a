// Typed views of what the action reads from GitHub. Only src/github/ builds these.

/** Which PR a run is about and why it started: our own union over the event payloads. */
export type PrTarget =
  | {
      kind: 'pull_request';
      eventName: 'pull_request' | 'pull_request_target';
      action: string;
      number: number;
      headSha: string;
      headRef: string;
      actor: string;
    }
  | { kind: 'workflow_dispatch'; eventName: 'workflow_dispatch'; number: number; actor: string }
  | {
      /** A red CI run on the PR's head: a fix round for the failing checks only. */
      kind: 'workflow_run';
      eventName: 'workflow_run';
      number: number;
      /** The commit the run failed on: the PR head must still be it. */
      headSha: string;
      /** The failed run's workflow file. */
      workflowPath: string;
      actor: string;
    }
  | {
      kind: 'issue_comment';
      eventName: 'issue_comment';
      number: number;
      actor: string;
      actorType: string;
      commentBody: string;
      commentId: number;
      /** `/review-loop <sha>`: the head the commenter reviewed (7 to 40 hex digits, lower-cased). */
      requestedSha: string | null;
      /** The comment's created_at: a bare `/review-loop` covers only a head that arrived before it. */
      commentCreatedAt: string | null;
    }
  | {
      /** A person's reply in a review thread (pull_request_review_comment, created): it waits for an answer. */
      kind: 'thread_reply';
      eventName: 'pull_request_review_comment';
      number: number;
      /** The PR head when the reply was made. */
      headSha: string;
      actor: string;
      actorType: string;
      /** The reply's REST id, and the REST id of the comment it replies to (the thread's first). */
      commentId: number;
      inReplyToId: number;
      commentBody: string;
    };

export interface RepoRef {
  owner: string;
  repo: string;
}

export interface PrFile {
  filename: string;
  status: string;
  additions: number;
  deletions: number;
  previousFilename?: string;
  /** git sees binary content: no line counts, no text patch. */
  binary?: boolean;
  /** What the context's diff.patch holds of this file (it is sampled when over the budget). */
  inDiff?: DiffShare;
}

export type DiffShare = 'full' | 'partial' | 'omitted';

export interface ThreadComment {
  id: string;
  databaseId: number | null;
  body: string;
  author: string | null;
  /** The author is a GitHub App (a bot token), not a person. */
  authorIsBot?: boolean;
  authorAssociation: string;
  path: string | null;
  line: number | null;
  createdAt: string;
}

export interface ReviewThread {
  id: string;
  isResolved: boolean;
  /** Who resolved it (GraphQL login: a bot without its `[bot]` suffix); null when open or unknown. */
  resolvedBy?: string | null;
  isOutdated: boolean;
  path: string | null;
  line: number | null;
  comments: ThreadComment[];
  /** How many comments the thread has; more than `comments` holds when GitHub returned only some. */
  commentCount?: number;
}

export interface ReviewState {
  hasChangesRequested: boolean;
  changesRequestedBy: { login: string; association: string }[];
}

export interface PrMeta {
  number: number;
  title: string;
  body: string;
  author: string;
  state: 'open' | 'closed';
  merged: boolean;
  draft: boolean;
  htmlUrl: string;
  baseRef: string;
  baseSha: string;
  headRef: string;
  headSha: string;
  /** owner/name of the repository the head branch lives in. */
  headRepoFullName: string;
  /** The author lets maintainers push to the head branch of their fork. */
  maintainerCanModify: boolean;
  baseRepoFullName: string;
}

export interface PrContext {
  repo: RepoRef;
  meta: PrMeta;
  files: PrFile[];
  diff: string;
  /** The diff was over the budget and is "large-diff sampled" (src/git/diff-sample.ts). */
  diffTruncated: boolean;
  threads: ReviewThread[];
  threadsTruncated: boolean;
  reviewState: ReviewState;
  /** The change since the head the last review saw (a later round, or a rerun after a push). */
  delta?: Delta;
}

export interface Delta {
  fromSha: string;
  toSha: string;
  /** `git diff from to`, cut at `maxChars` (then `truncated`). */
  patch: string;
  truncated: boolean;
  /** Newest first; the subjects are whoever wrote the commits: untrusted text. */
  commits: { sha: string; subject: string }[];
}
