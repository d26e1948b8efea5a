#!/usr/bin/env node
// The reviewer of the self-test workflow (.github/workflows/self-test.yml): a `command` agent that
// needs no model and no key. It answers every call with the envelope the prompts ask for
// (prompts/, the shapes of src/agents/envelope.ts): a reviewer approves with no findings, an
// analyzer of review threads reports none pending. What it exercises is everything around the
// agent: the action's start on a real runner, the sandbox user it runs as, the GitHub reads, the
// report in the job summary. It reads the PR's number from the context folder the action made.
import { readFileSync } from 'node:fs';
import path from 'node:path';

readFileSync(0, 'utf8'); // the prompt: read whole, as a CLI would, and not needed
const role = process.env.REVIEW_LOOP_ROLE;
const pr = JSON.parse(readFileSync(path.join(process.env.REVIEW_LOOP_CONTEXT_DIR, 'pr.json'), 'utf8'));
const none = { p0_blocking: 0, p1_critical: 0, p2_important: 0, p3_suggestion: 0 };
const answers = {
  reviewer: { conclusion: 'approve', issues: none, findings: [], fullReport: 'Self-test reviewer: no findings.' },
  analyzer: { issues: none, pendingIssues: [], fullReport: 'Self-test analyzer: nothing pending.' },
};
const answer = answers[role];
if (!answer) {
  console.error(`the self-test reviewer plays a reviewer or an analyzer, not a ${role}`);
  process.exit(1);
}
const envelope = { agent: process.env.REVIEW_LOOP_AGENT_NAME, prNumber: pr.number, ...answer };
console.log(`BEGIN_JSON\n${JSON.stringify(envelope, null, 2)}\nEND_JSON`);
