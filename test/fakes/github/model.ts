// What the fake stores per PR: the inputs, completed with ids, timestamps and defaults.
import type { AccountType, AuthorAssociation, FakeActivityInput, FakePullInput, FakeReviewInput } from './types.js';

export interface Actor {
  login: string;
  type: AccountType;
}

export interface PullState extends Omit<FakePullInput, 'reviews' | 'reviewThreads' | 'comments'> {
  id: number;
  state: 'open' | 'closed';
  baseRef: string;
  headRepoFullName: string;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  mergedAt: string | null;
  /** Label names on the PR, in the order they were added. */
  labels: string[];
}

export interface CommentState {
  id: number;
  issueNumber: number;
  user: Actor;
  body: string;
  authorAssociation: AuthorAssociation;
  createdAt: string;
  updatedAt: string;
  /** Set by minimizeComment: the classifier, lower-case as GraphQL's minimizedReason shows it. */
  minimizedReason?: string;
}

export interface ReviewState {
  id: number;
  prNumber: number;
  user: Actor;
  state: FakeReviewInput['state'];
  authorAssociation: AuthorAssociation;
  body: string;
  submittedAt: string;
  commitId?: string;
}

interface ThreadCommentState {
  id: string;
  databaseId: number;
  body: string;
  author: string | null;
  authorAssociation: AuthorAssociation;
  createdAt: string;
  /** The review that holds it (comments posted with a review), else null. */
  reviewId?: number | null;
  /** The commit it was made on. */
  commitId?: string;
}

export interface ThreadState {
  id: string;
  prNumber: number;
  isResolved: boolean;
  isOutdated: boolean;
  path: string;
  line: number | null;
  comments: ThreadCommentState[];
  /** First line of a multi-line thread. */
  startLine: number | null;
  /** Who resolved it (login), when resolved through the API. */
  resolvedBy?: string | null;
}

export interface LabelState {
  id: number;
  name: string;
  color: string;
  description: string | null;
}

export interface WorkflowRunState {
  id: number;
  workflowId: number;
  path: string;
  name: string;
  event: string;
  headSha: string;
  headBranch: string;
  createdAt: string;
}

export interface ActivityState {
  id: number;
  ref: string;
  before: string;
  after: string;
  timestamp: string;
  activityType: NonNullable<FakeActivityInput['activityType']>;
  actor: string | null;
}
