// What a two-round loop sends to the models, measured rather than promised.
// The bundled action runs the demo PR (a planted bug, fixed in round 1, clean in round 2) with
// the real CLIs (Claude Code, Gemini CLI, Codex and OpenCode reviewers, a Claude Code fixer)
// against the fake model server, which counts the tokens of every request it is sent
// (test/fakes/model-server/tokens.ts: one per 4 characters of tools, system and conversation,
// and the part an earlier request already sent, which a provider's prompt cache would serve).
//
// The scripted model reads what the prompt in front of it asks for, one tool call a file, as a
// model following it would: a whole reviewer prompt → diff.patch and files.json, plus
// earlier-findings.json and delta.patch when it holds the later-round part and not their text; a
// resumed session's prompt → only those two, when not in the prompt (it has read the rest).
// The same script plays an earlier build (BENCH_BEFORE_REV, default below) and this one.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  startFakeModelServer,
  type ModelRequest,
  type RecordedRequest,
  type Reply,
} from '../test/fakes/model-server/index.js';
import { createWorld, type RunResult } from '../test/e2e/harness.js';
import { breakdownRows } from './bench-token-breakdown.js';
import { PANEL_KEY, panelFixerReply, plantedBugReview, realCliPanel, reviewRound } from '../test/e2e/real-cli-panel.js';

/** The last commit before the budget, later rounds' delta and resumed reviewer sessions. */
const BEFORE_REV = process.env.BENCH_BEFORE_REV ?? '238b3b4';

const lastMatch = (text: string, re: RegExp) => [...text.matchAll(re)].at(-1)?.[1];

/** The files the prompt in front of the model asks it to read, in order. */
function filesToRead(transcript: string): string[] {
  const fresh = transcript.lastIndexOf('You are a senior code reviewer');
  const resumed = transcript.lastIndexOf('You reviewed this PR earlier in this session');
  const prompt = transcript.slice(Math.max(fresh, resumed));
  // The later-round files, unless the prompt holds them already: this build's prompt names the ones
  // it left in the folder ("In the context folder only: …"); an earlier one said "you need not open them".
  const left = /In the context folder only: ([^\n]*)/.exec(prompt)?.[1];
  const laterFiles = ['earlier-findings.json', 'delta.patch'];
  // The answer template names earlier-findings.json in every round; only a later round's part says
  // the folder holds it.
  const later =
    !/The context folder also holds:\s*- `earlier-findings\.json`/.test(prompt) ||
    prompt.includes('you need not open them')
      ? []
      : left === undefined
        ? laterFiles
        : laterFiles.filter((f) => left.includes(`\`${f}\``));
  return resumed > fresh ? later : ['diff.patch', 'files.json', ...later];
}

function readTool(protocol: ModelRequest['protocol'], file: string): Reply {
  if (protocol === 'anthropic') return { tool: { name: 'Read', input: { file_path: file } } };
  if (protocol === 'responses') return { tool: { name: 'exec_command', input: { cmd: `cat ${file}` } } };
  if (protocol === 'gemini') return { tool: { name: 'read_file', input: { file_path: file } } };
  return { tool: { name: 'read', input: { filePath: file } } };
}

/** Whose request this is: the fixer, a reviewer in round N, or a side request (titles). */
function whose(req: ModelRequest): { role: 'fixer' | 'reviewer' | 'other'; round: number } {
  const t = req.transcript;
  if (t.includes('You are the fix agent')) return { role: 'fixer', round: 0 };
  const round = reviewRound(t);
  return round ? { role: 'reviewer', round } : { role: 'other', round: 0 };
}

function script(req: ModelRequest): Reply {
  const who = whose(req);
  if (who.role === 'fixer') return panelFixerReply(req);
  if (who.role === 'other') return { text: 'ok' };
  const files = filesToRead(req.transcript);
  // The reviewer prompt's "The context folder is `…`" (a resumed one: "… for this round is `…`"), not
  // another sentence about the context folder that names a file in backticks.
  const dir = lastMatch(req.transcript, /context folder (?:for this round )?is `([^`]+)`/g);
  if (dir && req.resultsSincePrompt < files.length)
    return readTool(req.protocol, path.join(dir, files[req.resultsSincePrompt]!));
  return plantedBugReview(req.transcript);
}

export interface TokenRun {
  result: RunResult;
  requests: RecordedRequest[];
}

let runCount = 0;

async function runOnce(opts: { dist?: string; inputs?: Record<string, string> } = {}): Promise<TokenRun> {
  // BENCH_MODEL_LOG=<dir>: every request's body, one JSON line each, a file per run (for breakdowns).
  const logDir = process.env.BENCH_MODEL_LOG;
  const log = logDir ? { logFile: path.join(logDir, `run-${++runCount}.jsonl`) } : {};
  const models = await startFakeModelServer({ apiKey: PANEL_KEY, script, countTokens: true, ...log });
  const world = await createWorld();
  try {
    const panel = await realCliPanel(models);
    const result = await world.run({
      ...panel,
      inputs: { ...panel.inputs, ...opts.inputs },
      ...(opts.dist ? { dist: opts.dist } : {}),
    });
    return { result, requests: [...models.requests] };
  } finally {
    await world.close();
    await models.close();
  }
}

/** The bundle and prompts of an earlier commit, in a folder of their own; null when the clone lacks it. */
function bundleAt(rev: string): string | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-before-'));
  try {
    const tar = execFileSync('git', ['archive', rev, 'dist', 'prompts'], { maxBuffer: 64 << 20 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    return path.join(dir, 'dist', 'index.js');
  } catch {
    return null;
  }
}

interface Sums {
  input: number;
  uncached: number;
  output: number;
  requests: number;
}

function sums(requests: RecordedRequest[], pred: (r: RecordedRequest) => boolean): Sums {
  const s: Sums = { input: 0, uncached: 0, output: 0, requests: 0 };
  for (const r of requests.filter(pred)) {
    s.input += r.tokens!.input;
    s.uncached += r.tokens!.input - r.tokens!.cached;
    s.output += r.reply.usage?.outputTokens ?? 0;
    s.requests++;
  }
  return s;
}

const reviewerRound = (n: number) => (r: RecordedRequest) => {
  const w = whose(r);
  return w.role === 'reviewer' && w.round === n;
};
const label = (r: RecordedRequest) => {
  const w = whose(r);
  return w.role === 'reviewer' ? `reviewer round ${w.round}` : w.role;
};
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(0)}%`;
const k = (n: number) => n.toLocaleString('en-US');

function describeRun(label: string, run: TokenRun): { rows: [string, string, string][]; total: number } {
  const { result, requests } = run;
  if (result.outputs.status !== 'converged' || result.outputs.rounds !== '2') {
    throw new Error(
      `${label}: expected a converged 2-round run, got ${result.outputs.status} after ${result.outputs.rounds}`,
    );
  }
  const r1 = sums(requests, reviewerRound(1));
  const r2 = sums(requests, reviewerRound(2));
  const all = sums(requests, () => true);
  const total = all.input + all.output;
  return {
    total,
    rows: [
      [
        `${label}: reviewers' round 2 / round 1, tokens sent`,
        pct(r2.input, r1.input),
        `${k(r2.input)} / ${k(r1.input)} input tokens; ${r2.requests} / ${r1.requests} requests; target ≤ 40%`,
      ],
      [
        `${label}: reviewers' round 2 / round 1, not from cache`,
        pct(r2.uncached, r1.uncached),
        `${k(r2.uncached)} / ${k(r1.uncached)} input tokens no earlier request had sent`,
      ],
      [
        `${label}: whole run, tokens`,
        k(total),
        `${k(all.input)} in (${k(all.uncached)} not from cache) + ${k(all.output)} out, ${all.requests} requests; ` +
          `action's tokens output: ${result.outputs.tokens ?? '(none)'}`,
      ],
    ],
  };
}

interface ReportAgent {
  name: string;
  usage: { inputTokens: number | null; outputTokens: number | null };
}
interface ReportRound {
  review: { agents: ReportAgent[] };
  fix: { fixer: ReportAgent | null } | null;
}

/**
 * Checks a run with a budget: ended `budget`, and no call started once the budget was spent.
 * Calls start in groups (a round's reviewers together, then the fixer): a group may start only
 * while what the groups before it spent is under the limit.
 */
function budgetRow(run: TokenRun, limit: number): [string, string, string] {
  const { result } = run;
  const report = result.report as { result: { rounds: ReportRound[] } } | null;
  const groups: ReportAgent[][] = [];
  for (const round of report?.result.rounds ?? []) {
    groups.push(round.review.agents);
    if (round.fix?.fixer) groups.push([round.fix.fixer]);
  }
  const spentBy = (g: ReportAgent[]) =>
    g.reduce((s, a) => s + (a.usage.inputTokens ?? 0) + (a.usage.outputTokens ?? 0), 0);
  let before = 0;
  let startedPast = 0;
  for (const g of groups) {
    if (before >= limit) startedPast += g.length;
    before += spentBy(g);
  }
  const ok = result.outputs.status === 'budget' && startedPast === 0;
  if (!ok) {
    const spent = groups.map((g) => `${g.map((a) => a.name).join('+')}: ${spentBy(g)}`).join(', ');
    throw new Error(
      `budget run: status ${result.outputs.status}, ${startedPast} calls started past the limit (${spent})`,
    );
  }
  const spent = Number(result.outputs.tokens);
  // Calls that started within the budget run to their end: no CLI can stop itself at a token count.
  const over = spent > limit ? ' (calls that started within it ran to their end)' : '';
  return [
    'half-budget run (max-tokens = half the normal run)',
    `status ${result.outputs.status}`,
    `spent ${k(spent)} of ${k(limit)} tokens${over}; ${groups.flat().length} calls, ${startedPast} started past the limit`,
  ];
}

export async function tokenBenchRows(): Promise<[string, string, string][]> {
  const rows: [string, string, string][] = [];
  const beforeDist = bundleAt(BEFORE_REV);
  let beforeTotal: number | null = null;
  if (beforeDist) {
    const before = describeRun(`before (${BEFORE_REV})`, await runOnce({ dist: beforeDist }));
    rows.push(...before.rows);
    beforeTotal = before.total;
  } else {
    rows.push([`before (${BEFORE_REV})`, 'skipped', 'that commit is not in this clone']);
  }
  const afterRun = await runOnce();
  const after = describeRun('after', afterRun);
  rows.push(...after.rows);
  rows.push(...breakdownRows(afterRun.requests, label));
  if (beforeTotal) rows.push(['whole run, after / before', pct(after.total, beforeTotal), 'tokens sent and received']);
  // Half of what the action counted for the normal run (what the CLIs reported).
  const limit = Math.floor(Number(afterRun.result.outputs.tokens) / 2);
  rows.push(budgetRow(await runOnce({ inputs: { 'max-tokens': String(limit) } }), limit));
  return rows;
}
