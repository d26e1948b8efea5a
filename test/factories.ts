// Realistic domain values for the tests (not a test file itself), from two PRs: the demo's
// planted-bug PR (#7 of demo-repo), whose records follow from their findings like the real
// round's, and a security fix on shop-api (#42, the `shop*` values), whose records are
// complete as a report renders them: agents with usage, verify results, a rejected finding.
import type { PrContext, PrMeta, ReviewThread, ThreadComment } from '../src/domain/pull-request.js';
import type { Finding, ReviewRoundRecord } from '../src/domain/findings.js';
import type { FixRoundRecord } from '../src/domain/fix.js';
import { countFindings } from '../src/review/findings.js';
import type { AgentRun } from '../src/domain/agent-run.js';
import type { ReportContext } from '../src/report/markdown.js';

/** The repository's prompt templates. */
export const PROMPTS_URL = new URL('../prompts/', import.meta.url);

export const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';
const BASE = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e';

export function meta(over: Partial<PrMeta> = {}): PrMeta {
  return {
    number: 7,
    title: 'Add a feature (with a planted bug)',
    body: 'Please review.',
    author: 'Codertocat',
    state: 'open',
    merged: false,
    draft: false,
    htmlUrl: 'https://github.com/octo-org/demo-repo/pull/7',
    baseRef: 'main',
    baseSha: BASE,
    headRef: 'feature/planted-bug',
    headSha: HEAD,
    headRepoFullName: 'octo-org/demo-repo',
    baseRepoFullName: 'octo-org/demo-repo',
    maintainerCanModify: false,
    ...over,
  };
}

export function prContext(over: Partial<PrContext> = {}): PrContext {
  return {
    repo: { owner: 'octo-org', repo: 'demo-repo' },
    meta: meta(),
    files: [{ filename: 'src/math.js', status: 'modified', additions: 1, deletions: 1 }],
    diff: 'diff --git a/src/math.js b/src/math.js\n--- a/src/math.js\n+++ b/src/math.js\n@@ -1,3 +1,3 @@\n-  return a + b;\n+  return a - b;\n',
    diffTruncated: false,
    threads: [],
    threadsTruncated: false,
    reviewState: { hasChangesRequested: false, changesRequestedBy: [] },
    ...over,
  };
}

export function finding(over: Partial<Finding> = {}): Finding {
  return {
    id: 'BUG-5bb51bb7',
    priority: 'P1',
    category: 'correctness',
    file: 'src/math.js',
    line: 2,
    title: 'add() subtracts instead of adding',
    description: 'The function returns a - b.',
    suggestion: 'Return a + b.',
    source: { type: 'agent', name: 'reviewer-1', reviewId: null },
    reportedBy: ['reviewer-1'],
    ...over,
  };
}

export function threadFinding(over: Partial<Finding> = {}): Finding {
  return finding({
    id: 'THREAD-1001',
    priority: 'P2',
    category: 'review-thread',
    title: 'Rename the helper',
    source: { type: 'human', name: 'octocat', reviewId: '1001' },
    reportedBy: ['octocat'],
    ...over,
  });
}

/** A review record whose counts and consensus follow from its findings, like the real round. */
export function reviewRecord(
  over: Partial<ReviewRoundRecord> & { findings?: Finding[]; stuck?: Finding[] } = {},
): ReviewRoundRecord {
  const findings = over.findings ?? [];
  const stuck = over.stuck ?? [];
  const counts = countFindings([...findings, ...stuck]);
  const blocking = counts.p0 + counts.p1 + counts.p2 > 0;
  return {
    round: 1,
    headSha: HEAD,
    partial: false,
    agents: [],
    findings,
    stuck,
    counts,
    consensus: counts.p0 > 0 ? 'needs_major_work' : blocking ? 'request_changes' : 'approve',
    unresolvedThreads: findings.filter((f) => f.source.type === 'human').length,
    threadsTruncated: false,
    changesRequestedBy: [],
    ...over,
  };
}

export function fixRecord(over: Partial<FixRoundRecord> = {}): FixRoundRecord {
  return {
    round: 1,
    outcome: 'pushed',
    fixer: null,
    fixed: [],
    rejected: [],
    commitSha: '9c1185a5c5e9fc54612808977ee8f548b2258d31',
    previousHeadSha: HEAD,
    verify: [],
    message: 'Pushed 9c1185a to feature/planted-bug.',
    ...over,
  };
}

export function comment(over: Partial<ThreadComment> = {}): ThreadComment {
  return {
    id: 'PRRC_kwDOAAABc84AAAPp',
    databaseId: 1001,
    body: 'Please rename this helper; `calc` says nothing.',
    author: 'octocat',
    authorAssociation: 'MEMBER',
    path: 'src/math.js',
    line: 5,
    createdAt: '2026-11-20T10:00:00Z',
    ...over,
  };
}

export function thread(over: Partial<ReviewThread> = {}): ReviewThread {
  return {
    id: 'PRRT_kwDOAAABc84AAAAB',
    isResolved: false,
    isOutdated: false,
    path: 'src/math.js',
    line: 5,
    comments: [comment()],
    ...over,
  };
}

// ---- shop-api #42: records as the reports render them ----

export const SHOP_HEAD = '3f786850e387550fdab836ed7e6dc881de23001b';
export const SHOP_FIX_SHA = '9c1185a5c5e9fc54612808977ee8f548b2258d31';

export const shopReportCtx: ReportContext = {
  serverUrl: 'https://github.com',
  owner: 'octo-org',
  repo: 'shop-api',
  prNumber: 42,
  runUrl: 'https://github.com/octo-org/shop-api/actions/runs/1234567',
  maxRounds: 3,
  mode: 'fix',
  dryRun: false,
};

export function shopAgent(over: Partial<AgentRun> = {}): AgentRun {
  return {
    name: 'reviewer-1',
    role: 'reviewer',
    agent: 'claude',
    modelRequested: 'claude-sonnet-4-5',
    modelReported: 'claude-sonnet-4-5-20250929',
    status: 'ok',
    error: null,
    durationMs: 95_400,
    usage: { inputTokens: 48_210, outputTokens: 2_315, costUsd: 0.1834 },
    ...over,
  };
}

export function shopFinding(over: Partial<Finding> = {}): Finding {
  return {
    id: 'SEC-1a2b3c4d',
    priority: 'P0',
    category: 'security',
    file: 'src/db/orders.ts',
    line: 88,
    title: 'SQL query built by string concatenation',
    description: 'The `orderId` from the request is concatenated into the SQL text, which allows SQL injection.',
    suggestion: 'Use a parameterised query: `db.query("… WHERE id = $1", [orderId])`.',
    source: { type: 'agent', name: 'reviewer-1', reviewId: null },
    reportedBy: ['reviewer-1', 'reviewer-3'],
    ...over,
  };
}

export function shopReviewRecord(over: Partial<ReviewRoundRecord> = {}): ReviewRoundRecord {
  return {
    round: 1,
    headSha: SHOP_HEAD,
    partial: false,
    agents: [
      shopAgent(),
      shopAgent({
        name: 'reviewer-2',
        agent: 'codex',
        modelRequested: 'gpt-5-codex',
        modelReported: 'gpt-5-codex',
        usage: { inputTokens: 30_000, outputTokens: 1_200, costUsd: null },
      }),
      shopAgent({
        name: 'reviewer-3',
        agent: 'command',
        modelRequested: 'scripted',
        modelReported: null,
        usage: { inputTokens: null, outputTokens: null, costUsd: null },
      }),
    ],
    findings: [
      shopFinding(),
      shopFinding({
        id: 'QUAL-0badc0de',
        priority: 'P2',
        category: 'quality',
        file: 'src/api/cart.ts',
        line: 12,
        title: 'Duplicated price rounding',
        description: 'Rounding is done in two places.',
        suggestion: null,
        reportedBy: ['reviewer-2'],
      }),
    ],
    stuck: [],
    counts: { p0: 1, p1: 0, p2: 1, p3: 0 },
    consensus: 'needs_major_work',
    unresolvedThreads: 0,
    threadsTruncated: false,
    changesRequestedBy: [],
    ...over,
  };
}

export function shopFixRecord(over: Partial<FixRoundRecord> = {}): FixRoundRecord {
  return {
    round: 1,
    outcome: 'pushed',
    fixer: shopAgent({ name: 'fixer', role: 'fixer', durationMs: 201_000 }),
    fixed: [{ findingId: 'SEC-1a2b3c4d', description: 'Switched to a parameterised query.' }],
    rejected: [{ findingId: 'QUAL-0badc0de', reason: 'The two roundings differ on purpose (tax vs. display).' }],
    commitSha: SHOP_FIX_SHA,
    previousHeadSha: SHOP_HEAD,
    verify: [
      { command: 'npm ci', exitCode: 0, durationMs: 14_200, outputTail: 'added 312 packages', timedOut: false },
      { command: 'npm test', exitCode: 0, durationMs: 8_900, outputTail: 'Tests 41 passed', timedOut: false },
    ],
    message: 'Fixed 1 of 2 findings; 1 rejected with a reason.',
    ...over,
  };
}
