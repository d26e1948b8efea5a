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
