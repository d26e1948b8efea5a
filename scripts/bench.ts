// npm run bench: measures what the spec promises about speed and prints a table.
// - reviewers run concurrently: a round with 5 reviewers that each take 1 s costs about
//   as much wall time as a round with 1;
// - the sanitizer and the grouping stay fast on large inputs (200k-character reports,
//   500 findings);
// - one whole review → fix → re-review run of the bundled action, wall time;
// - the rules files of 20,000 changed files 100 folders deep are found in ≤ 1 s (bench-dir-rules.ts);
// - the tokens a two-round loop sends to the models, before and after the later-round changes (bench-tokens.ts).
import { spawnSync } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { sanitize } from '../src/security/sanitize.js';
import { composeComment } from '../src/report/state.js';
import { stripHidden } from '../src/security/untrusted.js';
import { installPinnedClis } from '../test/agents/cli-cache.js';
import { generatedFiles } from '../test/fakes/git-sandbox.js';
import { actionNode, installActionNode } from '../test/e2e/action-node.js';
import { createWorld } from '../test/e2e/harness.js';
import { PLANTED_BUG_RULES, reviewerAnswer } from '../test/e2e/scenarios.js';
import { dirRulesBenchRows } from './bench-dir-rules.js';
import { groupingBenchRows } from './bench-grouping.js';
import { sandboxBenchRows } from './bench-sandbox.js';
import { tokenBenchRows } from './bench-tokens.js';

const rows: [string, string, string][] = [];
const ms = (n: number) => `${n.toFixed(0)} ms`;

// Tokens of a two-round loop with the real CLIs, before and after; a half budget.
// BENCH_ONLY=tokens runs just this part.
if (process.env.BENCH_ONLY === 'grouping') {
  rows.push(...groupingBenchRows());
  printRows();
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'dir-rules') {
  rows.push(...(await dirRulesBenchRows()));
  printRows();
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'sandbox') {
  rows.push(...(await sandboxBenchRows()));
  printRows();
  process.exit(0);
}
// What npm test's setup installs (test/agents/global-setup.ts), so a fresh clone benches as it
// tests: the pinned CLIs the token rows run, and the Node 24 the bundle runs on. BENCH_ONLY=setup
// stops after it (test/unit/bench-fresh-clone.test.ts runs it as a newcomer would).
await Promise.all([
  installPinnedClis((line) => console.log(`[agent CLIs] ${line}`)),
  installActionNode((line) => console.log(`[action node] ${line}`)),
]);
if (process.env.BENCH_ONLY === 'setup') process.exit(0);
rows.push(...(await tokenBenchRows()));
rows.push(...(await sandboxBenchRows()));
if (process.env.BENCH_ONLY === 'tokens') {
  printRows();
  process.exit(0);
}

async function timeRun(reviewers: number): Promise<number> {
  const world = await createWorld();
  try {
    const started = performance.now();
    const r = await world.run({
      inputs: {
        mode: 'review',
        reviewers: Array.from({ length: reviewers }, (_, i) => `command:model-${i + 1}`).join('\n'),
      },
      rules: [{ role: 'reviewer', sleepMs: 1000, answer: reviewerAnswer([]) }],
    });
    if (r.outputs.status !== 'converged') throw new Error(`unexpected status ${r.outputs.status}`);
    return performance.now() - started;
  } finally {
    await world.close();
  }
}

const one = await timeRun(1);
const five = await timeRun(5);
rows.push(['review round, 1 reviewer (1 s each)', ms(one), 'baseline']);
rows.push([
  'review round, 5 reviewers (1 s each)',
  ms(five),
  `${(five / one).toFixed(2)}× of 1 reviewer (sequential would be ≈ ${((one + 4000) / one).toFixed(1)}×)`,
]);

const big = `${'Found a token ghp_' + 'a'.repeat(36) + ' and some text. '.repeat(20)}\n`.repeat(600);
let t = performance.now();
for (let i = 0; i < 10; i++) sanitize(big, { secrets: ['s3cret-value'] });
rows.push([
  `sanitize ${(big.length / 1000).toFixed(0)}k chars`,
  ms((performance.now() - t) / 10),
  'per call, 10 calls',
]);

// Fitting a hostile hidden state into a comment ends, in bounded time:
// 10,000 fixed findings whose 10,000-character file names are characters the state escapes.
const hostileFile = '-/'.repeat(5_000);
const hostileFixed = Array.from({ length: 10_000 }, (_, i) => ({
  id: `BUG-${i}`,
  category: 'bug',
  file: hostileFile,
  title: `${i}`,
}));
const hostileIds = hostileFixed.map((f) => f.id);
t = performance.now();
const fitted = composeComment('## report', {
  v: 1,
  kind: 'fix',
  headSha: 'a'.repeat(40),
  round: 1,
  runId: '1',
  status: null,
  findingIds: hostileIds,
  fixedIds: hostileIds,
  stuckIds: [],
  fixed: hostileFixed,
});
rows.push(['fit a hostile hidden state (10,000 fixes)', ms(performance.now() - t), `${fitted.length} chars`]);

rows.push(...groupingBenchRows());
rows.push(...(await dirRulesBenchRows()));

// Untrusted text is cleaned in linear time: 1 MB of each worst input found (64 KB of the first took
// 1.1 s when the cleaning backtracked). Median of 3 per input; the slowest input is the row.
const worst: [string, string][] = [
  ['tags never closed', '<a '],
  ['hidden tags never closed', '<a hidden '],
  ['nested hidden', '<div hidden>'],
  ['images never closed', '!['],
  ['comments never closed', '<!--'],
  ['a tag per character', '<b>x'],
];
const stripTimes = worst
  .map(([name, unit]) => {
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
    const runs = [0, 1, 2]
      .map(() => {
        const t0 = performance.now();
        stripHidden(text);
        return performance.now() - t0;
      })
      .sort((a, b) => a - b);
    return [name, runs[1]!] as const;
  })
  .sort((a, b) => b[1] - a[1]);
rows.push(['clean 1 MB of untrusted text, worst input', ms(stripTimes[0]![1]), `${stripTimes[0]![0]}; median of 3`]);

const world = await createWorld();
try {
  t = performance.now();
  const r = await world.run({ rules: PLANTED_BUG_RULES, inputs: { verify: 'npm test' } });
  rows.push([
    'full run: review → fix → verify → push → re-review',
    ms(performance.now() - t),
    `status ${r.outputs.status}, ${r.outputs.rounds} rounds`,
  ]);
} finally {
  await world.close();
}

// A 3,000-file, 100,000-line PR (past the 300 files / 20,000 lines of GitHub's diff media type)
// gathered from the checkout and handed to the first agent: time from the action's start to the reviewer's call
// (the call log's mtime), and the action's peak RSS (a preloaded module reports it at exit). Target ≤ 2 s, ≤ 256 MB.
// The same for the one-file sample PR shows the fixed cost of a run (start-up, checkout, sandbox user).
async function timeToFirstAgent(prChanges?: Record<string, string | null>): Promise<[string, string]> {
  const world = await createWorld(prChanges ? { sandbox: { prChanges } } : {});
  try {
    const rssFile = path.join(world.dir, 'rss-kb.txt');
    const probe = path.join(world.dir, 'rss-probe.mjs');
    await writeFile(
      probe,
      [
        "import { writeFileSync } from 'node:fs';",
        'const report = () => writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));',
        "if (process.argv[1]?.endsWith('index.js')) process.on('exit', report);",
      ].join('\n'),
    );
    // The fake GitHub computes a PR's files and diff with git on its first read and caches them; read it once
    // here so that its own work (which GitHub does on its servers) is not counted as the action's.
    await fetch(`${world.github.url}/repos/octo-org/demo-repo/pulls/7`);
    let started = 0;
    const r = await world.run({
      inputs: { mode: 'review' },
      rules: [{ role: 'reviewer', answer: reviewerAnswer([]) }],
      extraEnv: { NODE_OPTIONS: `--import=${pathToFileURL(probe).href}`, BENCH_RSS_FILE: rssFile },
      prepare: async () => {
        started = Date.now();
      },
    });
    const call = world.agentCalls()[0] as { promptChars?: number } | undefined;
    const log = path.join(world.dir, 'agent-io', 'agent-calls.jsonl');
    const peak = `peak RSS ${(Number(await readFile(rssFile, 'utf8')) / 1024).toFixed(0)} MB`;
    if (!call) return ['none', `no agent call, status ${r.outputs.status}; ${peak}`];
    return [ms((await stat(log)).mtimeMs - started), `${peak}, prompt ${call.promptChars} chars`];
  } finally {
    await world.close();
  }
}

const hundredThousandLines = { ...generatedFiles(2000, 33, 'a'), ...generatedFiles(1000, 34, 'b') };
const [largeTime, largeNote] = await timeToFirstAgent(hundredThousandLines);
rows.push(['3,000 files / 100,000 lines: start → first agent', largeTime, `${largeNote}; target ≤ 2 s, 256 MB`]);
const [smallTime, smallNote] = await timeToFirstAgent();
rows.push(['1 file / 2 lines: start → first agent', smallTime, `${smallNote}; the fixed cost of a run`]);

// The action's own time in a review-only round, and the requests it makes,
// against a small PR. The round runs from the log line that opens it ("round 1: reviewing …") to
// "posted the review report" (the run's one-time set-up before the loop is in the run's figure); the agents' own durations (report JSON) are taken out. Targets:
// ≤ 300 ms median, ≤ 6 requests. The whole run (node start-up, sandbox user, checkout) is shown too.
// npm run bench runs from the repository root (run-ts.mjs bundles this file into .cache/).
const CLOCK = path.resolve('scripts/bench-clock.cjs');
async function reviewOnlyRound(): Promise<{ round: number; run: number; requests: number }> {
  const w1 = await createWorld();
  try {
    const started = performance.now();
    const r = await w1.run({
      inputs: { mode: 'review' },
      extraEnv: { NODE_OPTIONS: `--require ${CLOCK}` },
      rules: [{ role: 'reviewer', answer: reviewerAnswer([]) }],
    });
    const wall = performance.now() - started;
    if (r.outputs.status !== 'converged') throw new Error(`unexpected status ${r.outputs.status}`);
    type Agent = { durationMs: number };
    const agents = (r.report as { result: { rounds: { review: { agents: Agent[] } }[] } }).result.rounds
      .flatMap((round) => round.review.agents)
      .reduce((sum, a) => sum + a.durationMs, 0);
    const at = (text: string) =>
      Number(/^\[\+(\d+)\]/.exec(r.stdout.split('\n').find((l) => l.includes(text)) ?? '')?.[1]);
    const round = at('posted the review report') - at('round 1: reviewing');
    if (!Number.isFinite(round)) throw new Error("the round's log lines were not found");
    return { round: round - agents, run: wall - agents, requests: w1.github.requests.length };
  } finally {
    await w1.close();
  }
}
const samplesRound = [];
for (let i = 0; i < 5; i++) samplesRound.push(await reviewOnlyRound());
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
rows.push([
  "review-only round: the action's own time",
  ms(median(samplesRound.map((x) => x.round))),
  'median of 5, the round minus its agents; target ≤ 300 ms',
]);
rows.push([
  "review-only run: the action's own time",
  ms(median(samplesRound.map((x) => x.run))),
  'median of 5, node start-up, sandbox user and checkout included',
]);
rows.push([
  'review-only run: requests to GitHub',
  String(samplesRound[0]!.requests),
  'small PR, the report included; target ≤ 6',
]);

// What a runner loads, and how long the bundle takes to start and stop at a
// config error (no request made). dist/main.js is the action; dist/index.js turns source maps on;
// the chunks main.js imports statically load with it (a chunk reached by import() only when used).
const startChunks = [...(await readFile('dist/main.js', 'utf8')).matchAll(/from"\.\/(chunk-[\w]+\.js)"/g)].map(
  (m) => m[1]!,
);
let loaded = (await stat('dist/main.js')).size + (await stat('dist/index.js')).size;
for (const chunk of new Set(startChunks)) loaded += (await stat(`dist/${chunk}`)).size;
rows.push([
  'bundle loaded at start (dist/*.js)',
  `${(loaded / 1e6).toFixed(2)} MB`,
  'target < 1.2 MB; the source map is extra',
]);
const startups: number[] = [];
for (let i = 0; i < 7; i++) {
  const t0 = performance.now();
  const env = { PATH: process.env.PATH, 'INPUT_GITHUB-TOKEN': 'x', 'INPUT_MAX-ROUNDS': 'eleven' };
  spawnSync(actionNode(), ['dist/index.js'], { env });
  startups.push(performance.now() - t0);
}
rows.push([
  'start-up to a config error',
  ms(startups.sort((a, b) => a - b)[3]!),
  `median of 7, on ${actionNodeVersion()}`,
]);

printRows();

function printRows(): void {
  const w = [Math.max(...rows.map((r) => r[0].length)), Math.max(...rows.map((r) => r[1].length))];
  console.log(`\n${'measure'.padEnd(w[0]!)}  ${'value'.padStart(w[1]!)}  note`);
  for (const [a, b, c] of rows) console.log(`${a.padEnd(w[0]!)}  ${b.padStart(w[1]!)}  ${c}`);
}

function actionNodeVersion(): string {
  return `Node ${spawnSync(actionNode(), ['--version'], { encoding: 'utf8' }).stdout.trim()}`;
}
