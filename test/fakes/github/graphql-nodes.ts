// The objects GraphQL queries resolve against: repository, pull request, review threads,
// reviews, actors; and GitHub's cursor connections with its argument rules.
import type { Ctx } from './http.js';
import { nodeId, userId } from './ids.js';
import { mutations } from './graphql-mutations.js';
import type { PullState, ThreadState } from './state.js';

type Node = Record<string, unknown>;

/** An error GitHub reports with a `type` (NOT_FOUND, FORBIDDEN…) next to the message. */
export class FakeGraphQLError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

const encodeCursor = (i: number): string => Buffer.from(`cursor:v2:${i}`).toString('base64');
function decodeCursor(cursor: string): number {
  const m = /^cursor:v2:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!m) throw new Error(`\`${cursor}\` does not appear to be a valid cursor.`);
  return Number(m[1]);
}

/** A Relay connection over `items`, refusing what GitHub refuses (no first/last, more than 100). */
function connection<T>(name: string, items: T[], args: PageArgs, toNode: (item: T) => Node): Node {
  const { first, last } = args;
  if (first == null && last == null) {
    throw new Error(`You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`);
  }
  for (const [arg, v] of [
    ['first', first],
    ['last', last],
  ] as const) {
    if (v != null && v > 100)
      throw new Error(
        `Requesting ${v} records on the \`${name}\` connection exceeds the \`${arg}\` limit of 100 records.`,
      );
    if (v != null && v < 0) throw new Error(`\`${arg}\` on the \`${name}\` connection cannot be less than zero.`);
  }
  let start = args.after ? decodeCursor(args.after) + 1 : 0;
  let end = args.before ? decodeCursor(args.before) : items.length;
  if (first != null) end = Math.min(end, start + first);
  if (last != null) start = Math.max(start, end - last);
  const indexes = Array.from({ length: Math.max(end - start, 0) }, (_v, k) => start + k);
  const nodes = indexes.map((i) => toNode(items[i] as T));
  return {
    totalCount: items.length,
    nodes,
    edges: indexes.map((i, k) => ({ cursor: encodeCursor(i), node: nodes[k] })),
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: indexes.length ? encodeCursor(start) : null,
      endCursor: indexes.length ? encodeCursor(end - 1) : null,
    },
  };
}

/** GraphQL names bots without the `[bot]` suffix that REST shows. */
function actor(ctx: Ctx, login: string | null): Node | null {
  if (login === null) return null;
  const bot = login.endsWith('[bot]');
  const name = bot ? login.slice(0, -'[bot]'.length) : login;
  const url = bot ? `${ctx.urls.web}/apps/${name}` : `${ctx.urls.web}/${login}`;
  return {
    __typename: bot ? 'Bot' : 'User',
    login: name,
    url,
    resourcePath: new URL(url).pathname,
    avatarUrl: () => `${ctx.urls.web}/avatars/u/${userId(login)}?v=4`,
  };
}

export function threadNode(ctx: Ctx, t: ThreadState): Node {
  return {
    id: t.id,
    isResolved: t.isResolved,
    isOutdated: t.isOutdated,
    isCollapsed: t.isResolved,
    path: t.path,
    line: t.line,
    originalLine: t.line,
    startLine: t.startLine,
    originalStartLine: t.startLine,
    diffSide: 'RIGHT',
    startDiffSide: t.startLine ? 'RIGHT' : null,
    subjectType: 'LINE',
    resolvedBy: t.resolvedBy ? actor(ctx, t.resolvedBy) : null,
    viewerCanResolve: true,
    comments: (args: PageArgs) =>
      connection('comments', t.comments, args, (c) => ({
        id: c.id,
        databaseId: c.databaseId,
        body: c.body,
        bodyText: c.body,
        author: actor(ctx, c.author),
        authorAssociation: c.authorAssociation,
        path: t.path,
        line: t.line,
        originalLine: t.line,
        createdAt: c.createdAt,
        updatedAt: c.createdAt,
        outdated: t.isOutdated,
        diffHunk: '',
        state: 'SUBMITTED',
        url: `${ctx.urls.web}/${ctx.state.fullName}/pull/${t.prNumber}#discussion_r${c.databaseId}`,
        replyTo: null,
      })),
  };
}

export function pullNode(ctx: Ctx, pull: PullState): Node {
  const { state, urls } = ctx;
  const shas = (): Promise<{ headSha: string; baseSha: string }> => ctx.data.shas(pull);
  const headRepo = pull.headRepoFullName;
  return {
    id: nodeId('PR', pull.id),
    databaseId: pull.id,
    number: pull.number,
    title: pull.title,
    body: pull.body ?? '',
    state: pull.merged ? 'MERGED' : pull.state === 'open' ? 'OPEN' : 'CLOSED',
    closed: pull.state === 'closed',
    merged: pull.merged ?? false,
    isDraft: pull.draft ?? false,
    url: `${urls.web}/${state.fullName}/pull/${pull.number}`,
    author: actor(ctx, pull.user),
    authorAssociation: pull.authorAssociation ?? 'CONTRIBUTOR',
    createdAt: pull.createdAt,
    updatedAt: pull.updatedAt,
    headRefName: pull.headRef,
    baseRefName: pull.baseRef,
    headRefOid: async () => (await shas()).headSha,
    baseRefOid: async () => (await shas()).baseSha,
    isCrossRepository: headRepo.toLowerCase() !== state.fullName.toLowerCase(),
    headRepository: {
      nameWithOwner: headRepo,
      name: headRepo.split('/')[1] ?? '',
      owner: actor(ctx, headRepo.split('/')[0] ?? ''),
    },
    reviewThreads: (args: PageArgs) =>
      connection('reviewThreads', state.threads(pull.number), args, (t) => threadNode(ctx, t)),
    reviews: (args: PageArgs & { states?: string[] | null }) => {
      const list = state.reviews(pull.number).filter((r) => !args.states || args.states.includes(r.state));
      return connection('reviews', list, args, (r) => ({
        id: nodeId('PRR', r.id),
        databaseId: r.id,
        author: actor(ctx, r.user.login),
        authorAssociation: r.authorAssociation,
        state: r.state,
        body: r.body,
        submittedAt: r.state === 'PENDING' ? null : r.submittedAt,
        commit: async () => ({ oid: r.commitId ?? (await shas()).headSha }),
      }));
    },
  };
}

/**
 * `viewer` answers for every kind of token, installation tokens included, and (unlike
 * `author` fields) keeps a bot's `[bot]` suffix: `github-actions[bot]` for GITHUB_TOKEN,
 * `<slug>[bot]` for an App token (fullsend-ai/fullsend PR #1953, CatChen/token-who-am-i-action
 * README), the user for a PAT.
 */
function viewerNode(ctx: Ctx): Node {
  const { login } = ctx.state.tokenActor();
  const bot = login.endsWith('[bot]');
  const url = bot ? `${ctx.urls.web}/apps/${login.slice(0, -'[bot]'.length)}` : `${ctx.urls.web}/${login}`;
  const id = userId(login);
  return {
    login,
    databaseId: id,
    id: nodeId(bot ? 'BOT' : 'U', id),
    name: login,
    url,
    resourcePath: new URL(url).pathname,
    avatarUrl: () => `${ctx.urls.web}/avatars/u/${id}?v=4`,
  };
}

const PERMISSION = {
  admin: 'ADMIN',
  maintain: 'MAINTAIN',
  write: 'WRITE',
  triage: 'TRIAGE',
  read: 'READ',
  none: null,
} as const;

export function rootValue(ctx: Ctx): Node {
  const { state, urls } = ctx;
  const perms = state.opts.repoPermissions;
  const viewerPermission = state.tokenLogin
    ? PERMISSION[state.permissionOf(state.tokenLogin)]
    : perms
      ? perms.admin
        ? 'ADMIN'
        : perms.push
          ? 'WRITE'
          : perms.pull
            ? 'READ'
            : null
      : null;
  const repo: Node = {
    id: nodeId('R', state.repoId),
    databaseId: state.repoId,
    name: state.repo,
    nameWithOwner: state.fullName,
    owner: { __typename: state.opts.ownerType ?? 'Organization', login: state.owner },
    url: `${urls.web}/${state.fullName}`,
    isPrivate: state.opts.private ?? false,
    isFork: false,
    defaultBranchRef: { name: state.defaultBranch },
    viewerPermission,
    pullRequest: ({ number }: { number: number }) => {
      const pull = state.pulls.get(number);
      if (!pull)
        throw new FakeGraphQLError('NOT_FOUND', `Could not resolve to a PullRequest with the number of ${number}.`);
      return pullNode(ctx, pull);
    },
  };
  return {
    repository: ({ owner, name }: { owner: string; name: string }) => {
      if (`${owner}/${name}`.toLowerCase() !== state.fullName.toLowerCase()) {
        throw new FakeGraphQLError('NOT_FOUND', `Could not resolve to a Repository with the name '${owner}/${name}'.`);
      }
      return repo;
    },
    viewer: () => viewerNode(ctx),
    nodes: ({ ids }: { ids: string[] }) => ids.map((id) => issueCommentNode(ctx, id)),
    ...mutations(ctx),
  };
}

/** An issue comment by node id (`nodes(ids:)`), with what minimizeComment changes; null when unknown. */
function issueCommentNode(ctx: Ctx, id: string): Node | null {
  const c = ctx.state.issueComments.find((x) => nodeId('IC', x.id) === id);
  if (!c) return null;
  return {
    __typename: 'IssueComment',
    id,
    databaseId: c.id,
    body: c.body,
    author: actor(ctx, c.user.login),
    isMinimized: c.minimizedReason !== undefined,
    minimizedReason: c.minimizedReason ?? null,
  };
}
