// The fake's mutable state: one repository, its PRs and everything hanging off them.
// Routes read it; tests change it between runs through the same methods.
import { FakeCi } from './ci.js';
import { ACTIONS_BOT, fakeSha, isoNow, nextId, nodeId, userId } from './ids.js';
import type {
  ActivityState,
  Actor,
  CommentState,
  LabelState,
  PullState,
  ReviewState,
  ThreadState,
  WorkflowRunState,
} from './model.js';
import type {
  AccountType,
  AuthorAssociation,
  FakeActivityInput,
  FakeCommentInput,
  FakeGitHubOptions,
  FakePullInput,
  FakeReviewInput,
  FakeThreadInput,
  FakeWorkflowRunInput,
  Permission,
  RecordedDispatch,
  TokenScope,
} from './types.js';

export type {
  ActivityState,
  Actor,
  CommentState,
  LabelState,
  PullState,
  ReviewState,
  ThreadState,
  WorkflowRunState,
} from './model.js';

type PullPatch = Partial<
  Pick<PullState, 'title' | 'body' | 'state' | 'merged' | 'draft' | 'headSha' | 'baseSha' | 'files' | 'diff'>
>;

const actorOf = (login: string, type?: AccountType): Actor => ({
  login,
  type: type ?? (login.endsWith('[bot]') ? 'Bot' : 'User'),
});

export class FakeState {
  readonly owner: string;
  readonly repo: string;
  readonly repoId: number;
  readonly pulls = new Map<number, PullState>();
  readonly issueComments: CommentState[] = [];
  readonly reviewList: ReviewState[] = [];
  readonly threadList: ThreadState[] = [];
  /** The repository's labels by name. */
  readonly labels = new Map<string, LabelState>();
  readonly dispatches: RecordedDispatch[] = [];
  readonly workflowRuns = new Map<number, WorkflowRunState>();
  /** Pushes and branch changes, oldest first (GET /repos/{o}/{r}/activity). */
  readonly activityList: ActivityState[] = [];
  /** When the fake started: branches that exist then count as pushed at this time. */
  readonly startedAt = isoNow();
  readonly collaborators: Map<string, Permission>;
  /** The repository's CI runs (index.ts sets it up with the git repository to read from). */
  ci = new FakeCi(undefined, async () => null);

  constructor(readonly opts: FakeGitHubOptions) {
    this.owner = opts.owner;
    this.repo = opts.repo;
    this.repoId = userId(`${opts.owner}/${opts.repo}`);
    this.collaborators = new Map(Object.entries(opts.collaborators ?? {}));
    for (const p of opts.pulls ?? []) this.addPull(p);
    for (const r of opts.workflowRuns ?? []) this.addWorkflowRun(r);
  }

  get fullName(): string {
    return `${this.owner}/${this.repo}`;
  }
  get defaultBranch(): string {
    return this.opts.defaultBranch ?? 'main';
  }
  /** The user behind a user token (PAT); undefined for installation tokens (GITHUB_TOKEN, App tokens). */
  get tokenLogin(): string | undefined {
    const t = this.opts.token;
    return t ? (t.kind === 'user' ? t.login : undefined) : this.opts.tokenLogin;
  }

  /** GITHUB_TOKEN and App tokens are installation tokens: no user behind them. */
  get isInstallationToken(): boolean {
    return this.tokenLogin === undefined;
  }

  /** The read-only GITHUB_TOKEN of a fork PR's `pull_request` job: every write is refused. */
  get tokenReadOnly(): boolean {
    return this.opts.token?.readOnly === true;
  }

  /** Whether the token may write `scope` (a read-only token may write nothing; a PAT is its user). */
  canWrite(scope: TokenScope): boolean {
    if (this.tokenReadOnly) return false;
    if (!this.isInstallationToken) return true;
    return (this.opts.tokenPermissions?.[scope] ?? 'write') === 'write';
  }

  /**
   * Who the token acts as: the Actions bot for a GITHUB_TOKEN, `<slug>[bot]` for an App's
   * installation token, else the user.
   */
  tokenActor(): Actor {
    const t = this.opts.token;
    if (t?.kind === 'app') return { login: `${t.slug}[bot]`, type: 'Bot' };
    const user = this.tokenLogin;
    return user ? actorOf(user) : { login: ACTIONS_BOT.login, type: 'Bot' };
  }

  permissionOf(login: string): Permission {
    if (login.toLowerCase() === this.owner.toLowerCase()) return 'admin';
    return this.collaborators.get(login) ?? 'none';
  }

  setPermission(login: string, permission: Permission): void {
    this.collaborators.set(login, permission);
  }

  /** GitHub's author_association for someone who did not get one explicitly. */
  associationOf(login: string, fallback: AuthorAssociation = 'NONE'): AuthorAssociation {
    if (login.toLowerCase() === this.owner.toLowerCase()) return 'OWNER';
    const p = this.collaborators.get(login);
    return p && p !== 'none' ? 'COLLABORATOR' : fallback;
  }

  addPull(input: FakePullInput): PullState {
    const { reviews, reviewThreads, comments, labels, ...rest } = input;
    const created = isoNow();
    const closed = input.state === 'closed' || input.merged === true;
    const pull: PullState = {
      ...rest,
      id: userId(`${this.fullName}#${input.number}`),
      state: closed ? 'closed' : 'open',
      baseRef: input.baseRef ?? this.defaultBranch,
      headRepoFullName: input.headRepoFullName ?? this.fullName,
      authorAssociation: input.authorAssociation ?? this.associationOf(input.user, 'CONTRIBUTOR'),
      createdAt: created,
      updatedAt: created,
      closedAt: closed ? created : null,
      mergedAt: input.merged ? created : null,
      labels: [],
    };
    this.pulls.set(input.number, pull);
    for (const name of labels ?? []) this.addLabel(input.number, name);
    for (const r of reviews ?? []) this.addReview(input.number, r);
    for (const t of reviewThreads ?? []) this.addThread(input.number, t);
    for (const c of comments ?? []) this.addComment(input.number, c);
    return pull;
  }

  /** Close, merge, retitle, move a static head sha…: updated_at follows like on GitHub. */
  updatePull(number: number, patch: PullPatch): PullState {
    const pull = this.requirePull(number);
    const now = isoNow();
    Object.assign(pull, patch, { updatedAt: now });
    if (patch.merged) Object.assign(pull, { state: 'closed', mergedAt: pull.mergedAt ?? now });
    if (pull.state === 'closed') pull.closedAt = pull.closedAt ?? now;
    else pull.closedAt = null;
    return pull;
  }

  requirePull(number: number): PullState {
    const pull = this.pulls.get(number);
    if (!pull) throw new Error(`fake GitHub: no PR #${number}`);
    return pull;
  }

  comments(number: number): CommentState[] {
    return this.issueComments.filter((c) => c.issueNumber === number);
  }

  addComment(number: number, input: FakeCommentInput): CommentState {
    this.requirePull(number);
    const at = input.createdAt ?? isoNow();
    const comment: CommentState = {
      id: nextId(),
      issueNumber: number,
      user: actorOf(input.login, input.type),
      body: input.body,
      authorAssociation: input.authorAssociation ?? this.associationOf(input.login),
      createdAt: at,
      updatedAt: at,
    };
    this.issueComments.push(comment);
    return comment;
  }

  reviews(number: number): ReviewState[] {
    return this.reviewList.filter((r) => r.prNumber === number);
  }

  addReview(number: number, input: FakeReviewInput): ReviewState {
    this.requirePull(number);
    const review: ReviewState = {
      id: nextId(),
      prNumber: number,
      user: actorOf(input.login),
      state: input.state,
      authorAssociation: input.authorAssociation ?? this.associationOf(input.login),
      body: input.body ?? '',
      submittedAt: input.submittedAt ?? isoNow(),
      ...(input.commitId ? { commitId: input.commitId } : {}),
    };
    this.reviewList.push(review);
    return review;
  }

  threads(number: number): ThreadState[] {
    return this.threadList.filter((t) => t.prNumber === number);
  }

  addThread(number: number, input: FakeThreadInput): ThreadState {
    this.requirePull(number);
    const thread: ThreadState = {
      id: input.id ?? nodeId('PRRT', nextId()),
      prNumber: number,
      isResolved: input.isResolved ?? false,
      isOutdated: input.isOutdated ?? false,
      path: input.path,
      line: input.line === undefined ? null : input.line,
      startLine: input.startLine ?? null,
      comments: input.comments.map((c) => {
        const databaseId = c.databaseId ?? nextId();
        return {
          id: c.id ?? nodeId('PRRC', databaseId),
          databaseId,
          body: c.body,
          author: c.author,
          authorAssociation: c.authorAssociation ?? (c.author ? this.associationOf(c.author) : 'NONE'),
          createdAt: c.createdAt ?? isoNow(),
        };
      }),
    };
    this.threadList.push(thread);
    return thread;
  }

  resolveThread(id: string, resolved = true, by: string | null = null): ThreadState {
    const thread = this.threadList.find((t) => t.id === id);
    if (!thread) throw new Error(`fake GitHub: no review thread ${id}`);
    thread.isResolved = resolved;
    thread.resolvedBy = resolved ? by : null;
    return thread;
  }

  /** The thread holding the review comment with this database id, and the comment. */
  findReviewComment(databaseId: number): { thread: ThreadState; index: number } | null {
    for (const thread of this.threadList) {
      const index = thread.comments.findIndex((c) => c.databaseId === databaseId);
      if (index >= 0) return { thread, index };
    }
    return null;
  }

  /** A reply at the end of a thread, by whoever the token is. */
  addReply(thread: ThreadState, actor: Actor, body: string): ThreadState['comments'][number] {
    const databaseId = nextId();
    const reply = {
      id: nodeId('PRRC', databaseId),
      databaseId,
      body,
      author: actor.login,
      authorAssociation: actor.type === 'Bot' ? ('NONE' as const) : this.associationOf(actor.login),
      createdAt: isoNow(),
      reviewId: null,
    };
    thread.comments.push(reply);
    return reply;
  }

  /** A label on the PR; a name the repository lacks is created first (GitHub's colour: ededed). */
  addLabel(number: number, name: string): LabelState {
    const pull = this.requirePull(number);
    const key = [...this.labels.keys()].find((k) => k.toLowerCase() === name.toLowerCase());
    const label = key ? this.labels.get(key)! : { id: nextId(), name, color: 'ededed', description: null };
    this.labels.set(label.name, label);
    if (!pull.labels.some((l) => l.toLowerCase() === name.toLowerCase())) pull.labels.push(label.name);
    return label;
  }

  /** Removes a label from the PR; false when it is not on it. */
  removeLabel(number: number, name: string): boolean {
    const pull = this.requirePull(number);
    const i = pull.labels.findIndex((l) => l.toLowerCase() === name.toLowerCase());
    if (i < 0) return false;
    pull.labels.splice(i, 1);
    return true;
  }

  /** A run of one of the repository's workflows; every run of one file shares its workflow_id. */
  addWorkflowRun(input: FakeWorkflowRunInput): WorkflowRunState {
    const run: WorkflowRunState = {
      id: input.id,
      workflowId: userId(`workflow:${this.fullName}/${input.path}`),
      path: input.path,
      name: input.name ?? input.path.split('/').pop() ?? input.path,
      event: input.event ?? 'pull_request',
      headSha: input.headSha ?? fakeSha(`run:${input.id}`),
      headBranch: input.headBranch ?? this.defaultBranch,
      createdAt: isoNow(),
    };
    this.workflowRuns.set(run.id, run);
    return run;
  }

  /** Records a push (or another branch change) the way GitHub's activity log keeps it. */
  recordPush(input: FakeActivityInput): ActivityState {
    const ref = input.ref.startsWith('refs/') ? input.ref : `refs/heads/${input.ref}`;
    const previous = this.activityList.filter((a) => a.ref === ref).at(-1);
    const entry: ActivityState = {
      id: nextId(),
      ref,
      before: input.before ?? previous?.after ?? '0'.repeat(40),
      after: input.after,
      timestamp: input.timestamp ?? isoNow(),
      activityType: input.activityType ?? 'push',
      actor: input.actor === undefined ? this.owner : input.actor,
    };
    this.activityList.push(entry);
    return entry;
  }

  /** Static shas for PRs without a git repository behind them. */
  staticSha(pull: PullState, side: 'head' | 'base'): string {
    const given = side === 'head' ? pull.headSha : pull.baseSha;
    return given ?? fakeSha(`${this.fullName}#${pull.number}:${side}`);
  }
}
