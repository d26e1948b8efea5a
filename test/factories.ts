// Realistic domain values for the unit tests (not a test file itself).
import type { PrContext, PrMeta, ReviewThread, ThreadComment } from '../src/github/types.js';
import type { Finding, ReviewRoundRecord } from '../src/review/types.js';
import type { FixRoundRecord } from '../src/fix/types.js';
import { countFindings } from '../src/review/findings.js';

/** The repository's prompt templates. */
export const PROMPTS_URL = new URL('../prompts/', import.meta.url);

export const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';
export const BASE = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e';

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
export function reviewRecord(over: Partial<ReviewRoundRecord> & { findings?: Finding[]; stuck?: Finding[] } = {}): ReviewRoundRecord {
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
