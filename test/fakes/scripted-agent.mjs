#!/usr/bin/env node
// A scripted agent for the `command` adapter: reads the prompt on stdin, picks the first
// rule of the scenario (JSON file at $SCRIPTED_AGENT_SCENARIO) that matches its role,
// instance name and round, and acts it out. Used by e2e tests and the demo.
//
// Rule: { role?, name?, model?, round?, once?, findingTitle? (confirm role: matches finding.json's title), answer?: object | string, fixAll?: boolean, rejectAll?: string,
//         edits?: { path: content | null }, commit?: string, exitCode?: number, stderr?: string,
//         rejectTitles?: { titlePart: reason } (with fixAll), deferTitles?: { titlePart: reason }, sleepMs?: number, usage?: { inputTokens?, outputTokens?, costUsd? } (written to $REVIEW_LOOP_USAGE_FILE),
//         run?: string (a shell command run in the checkout first, as an agent runs the project's tests: its exit code and output are logged as `ran`) }
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';

const env = process.env;
const role = env.REVIEW_LOOP_ROLE;
const name = env.REVIEW_LOOP_AGENT_NAME;
const round = Number(env.REVIEW_LOOP_ROUND);
const contextDir = env.REVIEW_LOOP_CONTEXT_DIR;
const prompt = readFileSync(0, 'utf8');

const scenario = JSON.parse(readFileSync(env.SCRIPTED_AGENT_SCENARIO, 'utf8'));
// The confirm role gets the finding to reproduce in finding.json.
let findingTitle = '';
try {
  findingTitle = JSON.parse(readFileSync(path.join(contextDir, 'finding.json'), 'utf8')).title ?? '';
} catch {}
// A rule with once: true is used up after its first match (a marker file beside the scenario).
const usedMarker = (i) => `${env.SCRIPTED_AGENT_SCENARIO}.used-${i}`;
const index = scenario.rules.findIndex(
  (r, i) =>
    !(r.once && existsSync(usedMarker(i))) &&
    (!r.role || r.role === role) &&
    (!r.name || r.name === name) &&
    (!r.model || r.model === env.REVIEW_LOOP_MODEL) &&
    (r.round === undefined || r.round === round) &&
    (!r.findingTitle || findingTitle.includes(r.findingTitle)),
);
const rule = scenario.rules[index] ?? {};
if (rule.once) writeFileSync(usedMarker(index), '');

let ran;
if (rule.run) {
  const r = spawnSync('/bin/sh', ['-c', rule.run], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  ran = { command: rule.run, code: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

if (env.SCRIPTED_AGENT_LOG) {
  const entry = {
    ...(ran ? { ran } : {}),
    role,
    name,
    round,
    model: env.REVIEW_LOOP_MODEL,
    cwd: process.cwd(),
    contextDir,
    promptChars: prompt.length,
    prompt,
    env,
  };
  appendFileSync(env.SCRIPTED_AGENT_LOG, `${JSON.stringify(entry)}\n`);
}
if (rule.sleepMs) await new Promise((r) => setTimeout(r, rule.sleepMs));
if (rule.usage && env.REVIEW_LOOP_USAGE_FILE) writeFileSync(env.REVIEW_LOOP_USAGE_FILE, JSON.stringify(rule.usage));

for (const [file, content] of Object.entries(rule.edits ?? {})) {
  const target = path.join(process.cwd(), file);
  if (content === null) rmSync(target, { force: true });
  else {
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}
if (rule.commit) {
  execFileSync('git', ['add', '-A'], { stdio: 'ignore' });
  execFileSync('git', ['-c', 'user.name=agent', '-c', 'user.email=agent@example.test', 'commit', '-qm', rule.commit], {
    stdio: 'ignore',
  });
}

let answer = rule.answer;
if (rule.fixAll || rule.rejectAll) {
  const payload = JSON.parse(readFileSync(path.join(contextDir, 'fix-payload.json'), 'utf8'));
  // rejectTitles: { "<part of a title>": "reason" } rejects those findings, fixAll fixes the rest.
  const rejectReason = (f) =>
    rule.rejectAll ?? Object.entries(rule.rejectTitles ?? {}).find(([part]) => f.title.includes(part))?.[1];
  // An optional (P3) finding is rejected by its title too; rejectAll is about the ones to fix.
  const optional = rule.rejectAll ? [] : (payload.optionalIssues ?? []);
  // deferTitles: { "<part of a title>": "reason" } defers those findings (a duplicate, an optional one left for later).
  const deferReason = (f) => Object.entries(rule.deferTitles ?? {}).find(([part]) => f.title.includes(part))?.[1];
  const all = [...payload.issuesToFix, ...optional];
  const deferred = all.filter((f) => deferReason(f) !== undefined);
  const rejected = all.filter((f) => deferReason(f) === undefined && rejectReason(f) !== undefined);
  const fixed = rule.fixAll
    ? payload.issuesToFix.filter((f) => rejectReason(f) === undefined && deferReason(f) === undefined)
    : [];
  answer = {
    agent: 'pr-fix',
    prNumber: payload.prNumber,
    summary: { fixed: fixed.length, rejected: rejected.length, deferred: deferred.length },
    fixedIssues: fixed.map((f) => ({ findingId: f.id, commitSha: null, description: `fixed ${f.id}` })),
    rejectedIssues: rejected.map((f) => ({ findingId: f.id, reason: rejectReason(f) })),
    ...(deferred.length ? { deferredIssues: deferred.map((f) => ({ findingId: f.id, reason: deferReason(f) })) } : {}),
    commits: [],
  };
}
if (rule.stderr) process.stderr.write(rule.stderr);
const text =
  typeof answer === 'string'
    ? answer
    : answer
      ? `Here is my answer.\nBEGIN_JSON\n${JSON.stringify(answer, null, 2)}\nEND_JSON\n`
      : '';
// Exit once stdout is flushed: a write to a pipe is asynchronous, and exiting at once cuts it at 64 KiB.
process.stdout.write(text, () => process.exit(rule.exitCode ?? 0));
