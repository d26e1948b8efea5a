// Every headline and section title of the reports, in one place.
import type { Priority } from '../domain/priority.js';
import type { Consensus } from '../domain/findings.js';
import type { AgentStatus } from '../domain/agent-run.js';
import type { FixOutcome } from '../domain/fix.js';

export const CONSENSUS_LABEL: Record<Consensus, string> = {
  approve: '✅ approve',
  request_changes: '🟠 request changes',
  needs_major_work: '🔴 needs major work',
};

export const PRIORITY_LABEL: Record<Priority, string> = {
  P0: '🔴 P0 · blocking',
  P1: '🟠 P1 · critical',
  P2: '🟡 P2 · important',
  P3: '🔵 P3 · suggestion',
};

export const AGENT_STATUS_LABEL: Record<AgentStatus, string> = {
  ok: '✅',
  failed: '❌',
  skipped: '⏭️ skipped',
};

export const FIX_OUTCOME_HEADLINE: Record<FixOutcome, string> = {
  pushed: '✅ Fixes pushed',
  'dry-run': '🧪 Dry run: fix prepared, not pushed',
  'fixer-failed': '❌ The fixer failed: nothing pushed',
  'verify-failed': '❌ Verification failed: nothing pushed',
  'gate-blocked': '🚧 The gate reviewer blocked the fix: nothing pushed',
  'push-rejected': '⛔ Push rejected (the branch moved meanwhile): nothing pushed, nothing lost',
  'no-changes': '➖ The fixer made no changes',
  refused: '⛔ Fix refused: nothing pushed',
  budget: '💸 Budget spent: nothing pushed',
};

/** Final `status` output values; unknown values are shown as they are. */
export const FINAL_STATUS_LABEL: Record<string, string> = {
  converged: '✅ Converged: no blocking findings left',
  'max-rounds': '⏹️ Max rounds reached with findings left',
  manual: '✋ Manual resolution required',
  'review-only': '👀 Review only',
  skipped: '⏭️ Skipped',
  budget: '💸 Budget spent',
  failed: '❌ Failed',
  cancelled: '🛑 Cancelled',
};

export const TITLE = {
  review: (round: number, max: number, consensus: string) => `## 🔍 Review round ${round} of ${max} · ${consensus}`,
  fix: (round: number, headline: string) => `## 🛠️ Fix round ${round} · ${headline}`,
  failure: '## ❌ pr-review-loop stopped with a failure',
  cancelled: '## 🛑 pr-review-loop was cancelled',
  final: (status: string) => `## pr-review-loop summary · ${status}`,
} as const;

export const SECTION = {
  counts: '### Findings by priority',
  reviewers: '### Reviewers',
  findings: '### Findings',
  stuck: '### 🔁 Stuck findings',
  threads: '### 💬 Unresolved review threads',
  fixed: '### Fixed',
  rejected: '### Rejected',
  deferred: '### Deferred (still open)',
  confirmed: '### Confirmed by a failing test',
  unconfirmed: '### Not confirmed (not fixed)',
  verify: '### Verification',
  fixer: '### Fixer',
  rounds: '### Rounds',
  remaining: '### Remaining findings',
  spending: '### 💸 Spending',
} as const;

export const NOTE = {
  suggestionClash: (id: string) =>
    `_No suggested change here: ${id} has one for the same lines, and only one of two can be applied._`,
  notReviewed: '⚪ not reviewed: no reviewer answered',
  unverified:
    '> [!WARNING]\n> Not verified: the workflow sets `verify: none`, so no command has to pass before a fix is pushed.',
  partial:
    '> [!WARNING]\n> Partial round: at least one reviewer failed; ' +
    'the findings below come from the reviewers that answered.',
  threadsTruncated:
    '> [!WARNING]\n> There are more review threads than the action reads (3 pages of 100). ' +
    'Fixing is blocked until some are resolved.',
  stuckIntro:
    'Reported fixed in an earlier round but found again. They are no longer handed to the fixer and need a human.',
  threadsIntro: 'Open review threads from people. The fixer never touches them: they need a human to resolve them.',
  noFindings: 'No findings. 🎉',
  onlyDecisions: 'No findings besides the decisions above.',
  membersSummary: (n: number) => `As each of the ${n} reports put it`,
  ruleFiles: (files: string): string => `Rules of the changed folders given to the reviewers: ${files}.`,
  quietInline: (below: number, overCap: number): string => {
    const why = [
      below ? `${below} below \`inline-min-priority\`` : '',
      overCap ? `${overCap} past \`inline-max-comments\`` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return `Quiet mode: ${below + overCap} finding(s) on the lines of the diff are in this report only (${why}).`;
  },
  dryRun: '> [!NOTE]\n> Dry run: nothing is posted or pushed; this report goes to the job summary only.',
  ciOnly: 'A round for the failing CI checks only: no agent reviewed the code (a red CI run started this run).',
  confirmedIntro:
    'Each test was written by the confirm agent and run by the action itself: it failed on the PR head ' +
    'with only test files added, and must pass after the fix.',
  confirmedStillFails: 'it still fails after the fix',
  confirmedNotRerun: 'not run after a fix yet',
  failingOutput: 'Failing output before the fix',
  afterOutput: 'Output after the fix',
  reviewOnly: '> [!NOTE]\n> Review-only run: no fixes will be made.',
  modelNotReported: 'not reported by CLI',
  fallback: '· fallback, asked after',
  modelMismatch: '⚠️ mismatch',
  runLink: 'Workflow run',
  noRunLink: 'Workflow run link unavailable.',
  failureNotDone:
    'The loop stopped here: no further review, fix or push happens in this run. ' +
    'Reports and commits posted earlier stay as they are.',
  failureDryRun: 'Dry run: nothing was posted or pushed.',
  failureWhat: (pr: number) => `**What failed** (PR #${pr}):`,
  cancelledNext: 'Nothing else was started and no push was left half-done. The next run reviews the PR as it is now.',
  changesRequested: (who: string) =>
    `**Changes requested by:** ${who}. ` +
    'A change request from the repository\'s people keeps the consensus at "request changes" or worse.',
  noLocation: 'no specific location',
  places: (links: string, n: number) => `${n} places: ${links}`,
  none: 'None.',
  noRounds: 'No review round ran.',
  noFix: 'no fix',
  noFixCommit: 'no fix commit.',
  notPushed: '(not pushed)',
  humanThread: 'review thread, needs a human',
  unresolvedCount: (n: number) => `${n} unresolved thread(s) on the PR.`,
  noOutput: '(no output)',
  outputOf: (cmd: string) => `**Output of ${cmd}** (last lines):`,
  runStatus: (status: string) => `**Run status: ${status}**`,
  remainingAtEnd: (n: number) => `**Remaining findings (${n}):**`,
  stuckMark: '(stuck)',
} as const;
