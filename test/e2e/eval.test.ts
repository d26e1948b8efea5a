// `npm run eval` end to end, with no keys and no network: the command runs as a user runs it (a
// child process, the real bundle, the local stand-in of GitHub) on cases of two kinds:
// - small projects this test makes (a git repository reached by a file:// URL and a commit), whose
//   recorded answers (written here) are replayed through the `command` agent, a fixer's edit included;
// - the shipped negotiator case (an npm package: negotiator 0.6.2 is a devDependency, so npm has its
//   tarball in its cache and npm_config_offline keeps it there), replaying the real model's round-1
//   answers of test/fixtures/real-model-runs/negotiator.
// The replay agent finds a call's answer by the checkout's package name, the round and the call's
// name: <recordings>/<package>/round-<n>/<name>.answer.txt, with <name>.files.json (files the call
// writes) and <name>.usage.json (what it reports having spent) beside it.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { findingId } from '../../src/review/finding-id.js';
import { ROOT } from './harness.js';
import { reviewerAnswer } from './scenarios.js';

const work = mkdtempSync(path.join(tmpdir(), 'eval-e2e-'));
chmodSync(work, 0o755);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const REPLAY = `import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
readFileSync(0);
const env = process.env;
const pkg = JSON.parse(readFileSync('package.json', 'utf8')).name;
const base = path.join(process.argv[2], pkg, 'round-' + env.REVIEW_LOOP_ROUND, env.REVIEW_LOOP_AGENT_NAME);
if (existsSync(base + '.files.json')) {
  for (const [file, text] of Object.entries(JSON.parse(readFileSync(base + '.files.json', 'utf8')))) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
if (existsSync(base + '.usage.json') && env.REVIEW_LOOP_USAGE_FILE) {
  copyFileSync(base + '.usage.json', env.REVIEW_LOOP_USAGE_FILE);
}
if (!existsSync(base + '.answer.txt')) { console.error('no recorded answer at ' + base); process.exit(1); }
process.stdout.write(readFileSync(base + '.answer.txt'), () => process.exit(0));
`;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.test', ...args], { cwd, encoding: 'utf8' }).trim();

/** A public-looking project of our own: a repository, its commit, and a PR written as a patch against it. */
function project(name: string, base: Record<string, string>, pr: Record<string, string>) {
  const repo = path.join(work, 'repos', name);
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q');
  for (const [f, t] of Object.entries({ 'package.json': JSON.stringify({ name, version: '1.0.0' }), ...base })) {
    mkdirSync(path.dirname(path.join(repo, f)), { recursive: true });
    writeFileSync(path.join(repo, f), t);
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'base');
  const commit = git(repo, 'rev-parse', 'HEAD');
  for (const [f, t] of Object.entries(pr)) writeFileSync(path.join(repo, f), t);
  const patch = `${git(repo, 'diff')}\n`;
  git(repo, 'checkout', '-q', '.');
  return { url: `file://${repo}`, commit, patch };
}

function writeCase(name: string, files: Record<string, string>) {
  const dir = path.join(work, 'cases', name);
  mkdirSync(dir, { recursive: true });
  for (const [f, t] of Object.entries(files)) writeFileSync(path.join(dir, f), t);
}

function record(pkg: string, round: number, name: string, o: { answer: unknown; files?: object; usage?: object }) {
  const dir = path.join(work, 'recordings', pkg, `round-${round}`);
  mkdirSync(dir, { recursive: true });
  const text = typeof o.answer === 'string' ? o.answer : `BEGIN_JSON\n${JSON.stringify(o.answer, null, 2)}\nEND_JSON\n`;
  writeFileSync(path.join(dir, `${name}.answer.txt`), text);
  if (o.files) writeFileSync(path.join(dir, `${name}.files.json`), JSON.stringify(o.files));
  if (o.usage) writeFileSync(path.join(dir, `${name}.usage.json`), JSON.stringify(o.usage));
}

const USAGE = { inputTokens: 1000, outputTokens: 200, costUsd: 0.01 };
const CLAMP =
  'function clamp(x, lo, hi) {\n  return Math.min(Math.max(x, lo), hi);\n}\n\nmodule.exports = { clamp };\n';
const CLAMP_PR =
  'function clamp(x, lo, hi) {\n  // One comparison fewer on the hot path.\n  return x < lo ? lo : hi;\n}\n\n' +
  'module.exports = { clamp };\n';
const CLAMP_HELDOUT =
  "const assert = require('node:assert');\nconst { clamp } = require('./index.js');\n" +
  'assert.strictEqual(clamp(5, 0, 10), 5);\nassert.strictEqual(clamp(-1, 0, 10), 0);\n' +
  'assert.strictEqual(clamp(11, 0, 10), 10);\n';
const PAD = "function pad(s, n) {\n  return String(s).padStart(n, '0');\n}\n\nmodule.exports = { pad };\n";
const PAD_PR = "function pad(s, n) {\n  return String(s).padStart(n - 1, '0');\n}\n\nmodule.exports = { pad };\n";
const PAD_HELDOUT =
  "const assert = require('node:assert');\nconst { pad } = require('./index.js');\n" +
  "assert.strictEqual(pad(7, 3), '007');\n";

function caseJson(source: object, file: string, lines: [number, number]) {
  return JSON.stringify({
    project: { repository: 'https://example.test/made-by-this-test', licence: 'MIT' },
    source,
    bug: { summary: 'the planted bug', priority: 'P1', places: [{ file, lines }] },
    heldout: { file: 'heldout.test.js', path: 'eval-heldout.test.js', command: 'node eval-heldout.test.js' },
  });
}

function setUp() {
  // clamp-lib: both reviewers find the bug at P1, one adds a P3 elsewhere; the fixer fixes; round 2 approves.
  const clamp = project('clamp-lib', { 'index.js': CLAMP }, { 'index.js': CLAMP_PR });
  writeCase('clamp', {
    'case.json': caseJson({ git: clamp.url, commit: clamp.commit }, 'index.js', [2, 3]),
    'pr.patch': clamp.patch,
    'pr.md': '# Faster clamp\n\nOne comparison fewer.\n',
    'heldout.test.js': CLAMP_HELDOUT,
  });
  const bug = {
    priority: 'P1',
    category: 'correctness',
    file: 'index.js',
    line: 3,
    title: 'clamp() returns hi for every x >= lo',
    description: 'x inside the range comes back as hi.',
    suggestion: 'Keep Math.min(Math.max(x, lo), hi).',
  };
  const nit = { ...bug, priority: 'P3', category: 'docs', file: 'package.json', line: 1, title: 'No description' };
  record('clamp-lib', 1, 'reviewer-1', { answer: reviewerAnswer([bug]), usage: USAGE });
  record('clamp-lib', 1, 'reviewer-2', {
    answer: reviewerAnswer([{ ...bug, title: 'clamp ignores x' }, nit]),
    usage: USAGE,
  });
  const fixed = { findingId: findingId(bug), commitSha: null, description: 'restored min/max' };
  record('clamp-lib', 1, 'fixer', {
    answer: {
      agent: 'pr-fix',
      prNumber: 7,
      summary: { fixed: 1, rejected: 0, deferred: 0 },
      fixedIssues: [fixed],
      rejectedIssues: [],
      commits: [],
    },
    files: { 'index.js': CLAMP },
    usage: USAGE,
  });
  record('clamp-lib', 2, 'reviewer-1', { answer: reviewerAnswer([]), usage: USAGE });
  record('clamp-lib', 2, 'reviewer-2', { answer: reviewerAnswer([]), usage: USAGE });

  // pad-lib: one reviewer sees the bug's line but only as a P3: not "found" at the expected P1.
  const pad = project('pad-lib', { 'index.js': PAD }, { 'index.js': PAD_PR });
  writeCase('pad', {
    'case.json': caseJson({ git: pad.url, commit: pad.commit }, 'index.js', [2, 2]),
    'pr.patch': pad.patch,
    'pr.md': '# Pad\n\nTidy.\n',
    'heldout.test.js': PAD_HELDOUT,
  });
  const style = { ...bug, priority: 'P3', category: 'quality', line: 2, title: 'Magic number in padStart' };
  record('pad-lib', 1, 'reviewer-1', { answer: reviewerAnswer([style]) });
  record('pad-lib', 1, 'reviewer-2', { answer: reviewerAnswer([]) });

  // The shipped npm case with the real model's recorded round-1 answers, byte for byte.
  cpSync(path.join(ROOT, 'eval/cases/negotiator-q-case'), path.join(work, 'cases', 'negotiator-q-case'), {
    recursive: true,
  });
  cpSync(
    path.join(ROOT, 'test/fixtures/real-model-runs/negotiator/round-1'),
    path.join(work, 'recordings/negotiator/round-1'),
    {
      recursive: true,
    },
  );

  writeFileSync(path.join(work, 'replay.mjs'), REPLAY);
  // The sandbox user reads the recordings and the replay script.
  const open = (p: string) => {
    chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
    if (statSync(p).isDirectory()) for (const n of readdirSync(p)) open(path.join(p, n));
  };
  open(path.join(work, 'recordings'));
  open(path.join(work, 'replay.mjs'));
  writeFileSync(
    path.join(work, 'config.yml'),
    [
      'configurations:',
      '  - name: replay-pair',
      '    inputs:',
      '      agent: command',
      `      agent-command: node ${path.join(work, 'replay.mjs')} ${path.join(work, 'recordings')}`,
      '      reviewers: |',
      '        command:model-a',
      '        command:model-b',
      '      fixer: command:model-a',
      '      max-rounds: 2',
      '    timeoutMinutes: 5',
    ].join('\n'),
  );
}

interface Result {
  case: string;
  found: { priority: string } | null;
  agreement: { by: number; of: number } | null;
  fixed: boolean;
  rounds: number;
  status: string;
  otherFindings: Record<string, number>;
  tokens: number;
  costUsd: number;
  wallSeconds: number;
  error: string | null;
}

it('runs every case through the bundle and judges each by its held-out test', { timeout: 300_000 }, () => {
  setUp();
  const out = path.join(work, 'out');
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_offline: 'true' };
  // The eval is a script, not a test: it must not believe it runs inside vitest.
  delete env.VITEST;
  const r = spawnSync(
    process.execPath,
    [
      'scripts/run-ts.mjs',
      'scripts/eval.ts',
      '--config',
      path.join(work, 'config.yml'),
      '--cases',
      path.join(work, 'cases'),
      '--out',
      out,
    ],
    { cwd: ROOT, env, encoding: 'utf8', timeout: 280_000 },
  );
  const log = r.stdout + r.stderr;
  expect(r.status, log).toBe(0);
  const { results, summaries } = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as {
    results: Result[];
    summaries: {
      found: number;
      fixed: number;
      judged: number;
      agreement: { by: number; of: number };
      tokens: number;
    }[];
  };
  const by = Object.fromEntries(results.map((x) => [x.case, x]));

  expect(by.clamp).toMatchObject({
    found: { priority: 'P1' },
    agreement: { by: 2, of: 2 },
    fixed: true,
    rounds: 2,
    status: 'converged',
    otherFindings: { P0: 0, P1: 0, P2: 0, P3: 1 },
    // Five calls (two reviews, a fix, two reviews), each reporting 1,200 tokens and one cent.
    tokens: 6000,
    costUsd: 0.05,
    error: null,
  });
  expect(by.clamp!.wallSeconds).toBeGreaterThan(0);

  expect(by.pad).toMatchObject({ found: null, agreement: null, fixed: false, rounds: 1, error: null });
  // Its P3 sits at the bug's place: too mild to count as found, and not another finding either.
  expect(by.pad!.otherFindings).toEqual({ P0: 0, P1: 0, P2: 0, P3: 0 });

  // The real model's answers: both reviewers found the shadowed counter at P1; the recorded fixer
  // answer edits nothing, so the held-out test still fails on the final head.
  expect(by['negotiator-q-case']).toMatchObject({
    found: { priority: 'P1' },
    agreement: { by: 2, of: 2 },
    fixed: false,
    rounds: 1,
  });
  // Its six findings all sit at the bug's three places (the "no tests" ones too): none is "other".
  // The fixer changed nothing, so the loop stops for a person ("manual").
  expect(by['negotiator-q-case'], JSON.stringify(by['negotiator-q-case'])).toMatchObject({
    otherFindings: { P0: 0, P1: 0, P2: 0, P3: 0 },
    status: 'manual',
  });

  expect(summaries[0]).toMatchObject({ judged: 3, found: 2, fixed: 1, agreement: { by: 4, of: 4 }, tokens: 6000 });
  const md = readFileSync(path.join(out, 'results.md'), 'utf8');
  expect(md).toContain('### replay-pair');
  expect(md).toMatch(/\| clamp \| yes \(P1\) \| 2\/2 \| yes \| 2 \| converged \| 1 \| 6000 \| 0\.0500 \|/);
  expect(md).toMatch(/\| pad \| no \| – \| no \| 1 \|/);
  expect(md).toContain('| **all 3** | **2/3** | **4/4** | **1/3** |');
  expect(log).toContain('[replay-pair] clamp: found yes');
});

it('refuses a package whose tarball does not match the case integrity, naming the case', { timeout: 120_000 }, () => {
  const cases = path.join(work, 'bad-cases');
  cpSync(path.join(ROOT, 'eval/cases/negotiator-q-case'), path.join(cases, 'tampered'), { recursive: true });
  const file = path.join(cases, 'tampered', 'case.json');
  const c = JSON.parse(readFileSync(file, 'utf8'));
  c.source.integrity = `sha512-${'A'.repeat(86)}==`;
  writeFileSync(file, JSON.stringify(c));
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_offline: 'true' };
  delete env.VITEST;
  const r = spawnSync(process.execPath, ['scripts/run-ts.mjs', 'scripts/eval.ts', '--check', '--cases', cases], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
  expect(r.status).toBe(1);
  expect(r.stdout).toContain('tampered: BROKEN');
  expect(r.stdout).toContain('the case expects sha512-AAAA');
});
