// Answers the scripted agents give in the e2e scenarios.
import type { ScenarioRule } from './harness.js';

export const BUG_FINDING = {
  priority: 'P1',
  category: 'correctness',
  file: 'src/math.js',
  line: 2,
  title: 'add() subtracts instead of adding',
  description: 'add(a, b) returns a - b, so add(2, 3) is -1.',
  suggestion: 'Return a + b.',
};

export function reviewerAnswer(findings: object[], name = 'reviewer-1') {
  return {
    agent: name,
    prNumber: 7,
    conclusion: findings.length ? 'request_changes' : 'approve',
    issues: { p0_blocking: 0, p1_critical: findings.length, p2_important: 0, p3_suggestion: 0 },
    findings,
    fullReport: findings.length ? 'Found a bug.' : 'Looks good.',
  };
}

export const FIXED_MATH = 'function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n';

/** Round 1 finds the planted bug, the fixer fixes it, round 2 is clean. */
export const PLANTED_BUG_RULES: ScenarioRule[] = [
  { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG_FINDING]) },
  { role: 'reviewer', answer: reviewerAnswer([]) },
  { role: 'fixer', fixAll: true, edits: { 'src/math.js': FIXED_MATH } },
];

/** A reviewer finding: BUG_FINDING with some fields changed. */
export function finding(over: Partial<typeof BUG_FINDING> & Record<string, unknown> = {}) {
  return { ...BUG_FINDING, ...over };
}

/** A second, unrelated problem (another file, another category). */
export const DOC_FINDING = finding({
  priority: 'P2',
  category: 'documentation',
  file: 'README.md',
  line: 3,
  title: 'README does not document add()',
  description: 'The README never says what add() does.',
  suggestion: 'Describe add() in the README.',
});

/** The analyzer's answer (A3): one pending issue per thread, keyed by its first comment's database id. */
export function analyzerAnswer(pending: { databaseId: number; title: string; priority?: string }[]) {
  return {
    agent: 'analyzer',
    prNumber: 7,
    pendingIssues: pending.map((p) => ({
      id: `THREAD-${p.databaseId}`,
      priority: p.priority ?? 'P2',
      category: 'review-thread',
      file: 'src/math.js',
      line: 2,
      title: p.title,
      description: 'A reviewer asked for this.',
      source: { type: 'human', reviewId: p.databaseId },
    })),
    fullReport: 'One thread still needs an answer.',
  };
}

/**
 * An unresolved review thread on the planted bug's line, by a member of the organization (only
 * threads started by someone with write access block the loop).
 */
export const HUMAN_THREAD = {
  path: 'src/math.js',
  line: 2,
  comments: [
    {
      databaseId: 5551,
      body: 'Why does add() subtract? Please explain before merging.',
      author: 'bob',
      authorAssociation: 'MEMBER' as const,
    },
  ],
};

/**
 * The fixer "fixes" every issue by touching an unrelated file (a different content each
 * round, so every round has something to commit), and the reviewer reports the same
 * problem again, one line further down each round.
 */
export const STUCK_RULES: ScenarioRule[] = [
  { role: 'reviewer', round: 1, answer: reviewerAnswer([BUG_FINDING]) },
  { role: 'reviewer', round: 2, answer: reviewerAnswer([finding({ line: 3 })]) },
  { role: 'reviewer', answer: reviewerAnswer([finding({ line: 4 })]) },
  ...[1, 2, 3].map((round) => ({
    role: 'fixer',
    round,
    fixAll: true,
    edits: { 'notes.txt': `touched in round ${round}\n` },
  })),
];

/** The thread-answer worlds (thread-answers, reply-events): a P3 style finding beside the planted bug. */
export const STYLE_FINDING = finding({
  priority: 'P3',
  category: 'docs',
  line: 1,
  title: 'add() has no JSDoc',
  description: 'The exported `add` function has no JSDoc block saying what it returns.',
  suggestion: '',
});
export const INTENDED_REPLY = 'This is intended because we document the callers, not internal helpers.';
export const CONCEDE_ANSWER = 'Agreed: math.js is an internal helper and its callers carry the JSDoc (src/math.js:1).';
const EXPLAIN_ANSWER = 'Line 2 returns `a - b`: add(2, 3) is -1 whatever the sign of the inputs.';

/** The answerer's answer for the thread of the finding titled `title`. */
const answererRule = (title: string, stance: string, answer: string): ScenarioRule => ({
  role: 'answerer',
  findingTitle: title,
  answer: { agent: 'answerer', stance, answer },
});
export const REPLY_ANSWERS = [
  answererRule(STYLE_FINDING.title, 'concede', CONCEDE_ANSWER),
  answererRule(BUG_FINDING.title, 'explain', EXPLAIN_ANSWER),
];
export const REPLY_REVIEW = { role: 'reviewer', answer: reviewerAnswer([BUG_FINDING, STYLE_FINDING]) };
