// Realistic records for the report tests (not a test file itself).
import type { Finding, ReviewRoundRecord } from '../../src/review/types.js';
import type { AgentRun } from '../../src/roles/types.js';
import type { FixRoundRecord } from '../../src/fix/types.js';
import type { ReportContext } from '../../src/report/markdown.js';

export const HEAD = '3f786850e387550fdab836ed7e6dc881de23001b';
export const FIX_SHA = '9c1185a5c5e9fc54612808977ee8f548b2258d31';

export const ctx: ReportContext = {
  serverUrl: 'https://github.com',
  owner: 'octo-org',
  repo: 'shop-api',
  prNumber: 42,
  runUrl: 'https://github.com/octo-org/shop-api/actions/runs/1234567',
  maxRounds: 3,
  mode: 'fix',
  dryRun: false,
};

export function agent(over: Partial<AgentRun> = {}): AgentRun {
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

export function finding(over: Partial<Finding> = {}): Finding {
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

export function reviewRecord(over: Partial<ReviewRoundRecord> = {}): ReviewRoundRecord {
  return {
    round: 1,
    headSha: HEAD,
    partial: false,
    agents: [
      agent(),
      agent({ name: 'reviewer-2', agent: 'codex', modelRequested: 'gpt-5-codex', modelReported: 'gpt-5-codex', usage: { inputTokens: 30_000, outputTokens: 1_200, costUsd: null } }),
      agent({ name: 'reviewer-3', agent: 'command', modelRequested: 'scripted', modelReported: null, usage: { inputTokens: null, outputTokens: null, costUsd: null } }),
    ],
    findings: [
      finding(),
      finding({
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

export function fixRecord(over: Partial<FixRoundRecord> = {}): FixRoundRecord {
  return {
    round: 1,
    outcome: 'pushed',
    fixer: agent({ name: 'fixer', role: 'fixer', durationMs: 201_000 }),
    fixed: [{ findingId: 'SEC-1a2b3c4d', description: 'Switched to a parameterised query.' }],
    rejected: [{ findingId: 'QUAL-0badc0de', reason: 'The two roundings differ on purpose (tax vs. display).' }],
    commitSha: FIX_SHA,
    previousHeadSha: HEAD,
    verify: [
      { command: 'npm ci', exitCode: 0, durationMs: 14_200, outputTail: 'added 312 packages', timedOut: false },
      { command: 'npm test', exitCode: 0, durationMs: 8_900, outputTail: 'Tests 41 passed', timedOut: false },
    ],
    message: 'Fixed 1 of 2 findings; 1 rejected with a reason.',
    ...over,
  };
}
