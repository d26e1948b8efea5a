// Runs one case under one configuration: the PR goes into the local stand-in of GitHub (the fake
// GitHub on 127.0.0.1 and a bare git origin, as `npm run demo` uses), the bundled action runs on it
// the way the Actions runner would, with the configuration's inputs and keys, and the outcome is judged.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FileChanges } from '../../test/fakes/git-sandbox.js';
import { createWorld } from '../../test/e2e/harness.js';
import type { EvalCase } from './case.js';
import type { Configuration } from './config.js';
import { fetchSource } from './fetch.js';
import { judgeReport, runHeldout, type Judged } from './judge.js';
import { leftovers, setupFacts, type SetupFacts } from './run-facts.js';

export interface CaseResult extends Judged, SetupFacts {
  configuration: string;
  case: string;
  fixed: boolean;
  /** Files the loop's commits changed (the PR head to the final head): setup's files are never among them. */
  fixFiles: string[];
  /** Untracked or ignored entries left in the runner's checkout once the action ended. */
  leftovers: string[];
  rounds: number;
  status: string;
  tokens: number;
  costUsd: number;
  wallSeconds: number;
  /** Set when the case could not be run or judged (a broken case, a failed fetch): nothing else counts. */
  error: string | null;
}

/** The case's code with the PR applied (a copy), and the files the patch changed as the PR leaves them. */
export interface PreparedCase {
  base: string;
  pr: string;
  baseFiles: FileChanges;
  prChanges: FileChanges;
  cleanup(): void;
}

function readTree(dir: string, prefix = ''): FileChanges {
  const files: FileChanges = {};
  for (const name of readdirSync(dir)) {
    if (name === '.git') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) Object.assign(files, readTree(full, `${prefix}${name}/`));
    else files[`${prefix}${name}`] = readFileSync(full, 'utf8');
  }
  return files;
}

/**
 * Fetches the case's code and applies its patch; checks the held-out test passes before the PR and
 * fails after it, so "fixed" means something. Throws, naming the case, when either does not hold.
 */
export async function prepareCase(c: EvalCase): Promise<PreparedCase> {
  const base = await fetchSource(c);
  const work = mkdtempSync(path.join(tmpdir(), `eval-${c.name}-pr-`));
  const cleanup = () => {
    rmSync(path.dirname(base), { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const pr = path.join(work, 'tree');
    const check = path.join(work, 'check');
    cpSync(base, pr, { recursive: true });
    const apply = (args: string[]) =>
      execFileSync('git', ['apply', ...args, c.patchFile], { cwd: pr, encoding: 'utf8', stdio: 'pipe' });
    try {
      apply(['--check']);
    } catch (e) {
      throw new Error(`case ${c.name}: pr.patch does not apply to the fetched code: ${(e as Error).message}`);
    }
    const changed = apply(['--numstat'])
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[2]!);
    apply([]);
    const prChanges: FileChanges = Object.fromEntries(
      changed.map((f) => [f, existsSync(path.join(pr, f)) ? readFileSync(path.join(pr, f), 'utf8') : null]),
    );
    for (const [tree, want] of [
      [base, true],
      [pr, false],
    ] as const) {
      rmSync(check, { recursive: true, force: true });
      cpSync(tree, check, { recursive: true });
      const r = runHeldout(c, check);
      if (r.passed !== want) {
        const where = tree === base ? 'passes on the code before the PR' : 'fails on the PR';
        throw new Error(`case ${c.name}: the held-out test must ${where}, and it does not:\n${r.output.slice(-2000)}`);
      }
    }
    rmSync(check, { recursive: true, force: true });
    return { base, pr, baseFiles: readTree(base), prChanges, cleanup };
  } catch (e) {
    cleanup();
    throw e;
  }
}

export async function runCase(c: EvalCase, config: Configuration, log: (line: string) => void): Promise<CaseResult> {
  const empty: CaseResult = {
    configuration: config.name,
    case: c.name,
    found: null,
    agreement: null,
    otherFindings: { P0: 0, P1: 0, P2: 0, P3: 0 },
    fixed: false,
    fixFiles: [],
    leftovers: [],
    setup: null,
    headTests: null,
    notRun: null,
    rounds: 0,
    status: 'not run',
    tokens: 0,
    costUsd: 0,
    wallSeconds: 0,
    error: null,
  };
  let prepared: PreparedCase;
  try {
    prepared = await prepareCase(c);
  } catch (e) {
    return { ...empty, error: (e as Error).message };
  }
  const world = await createWorld({
    sandbox: { baseFiles: prepared.baseFiles, prChanges: prepared.prChanges, prMessage: c.title },
    pull: { title: c.title, body: c.description },
  });
  try {
    const inputs: Record<string, string> = {
      // The harness's scripted-agent defaults are cleared: the action's own defaults apply to what
      // the configuration leaves out, as in a workflow.
      agent: '',
      'agent-command': '',
      'agent-env': '',
      reviewers: '',
      ...(c.setup ? { setup: c.setup } : {}),
      ...(c.verify ? { verify: c.verify } : {}),
      ...config.inputs,
    };
    const prHead = (await world.headLog())[0]!.sha;
    let checkout = '';
    const started = performance.now();
    const r = await world.run({
      inputs,
      extraEnv: config.env,
      killAfterMs: config.timeoutMinutes * 60_000,
      prepare: async (c) => {
        checkout = c.dir;
      },
    });
    const wallSeconds = (performance.now() - started) / 1000;
    if (r.code !== 0 && !r.report) log(`${c.name}: the action failed:\n${(r.stdout + r.stderr).slice(-3000)}`);
    const judged = judgeReport(r.report, c);
    const head = (await world.headLog())[0]!.sha;
    const final = await world.sandbox.cloneAt(world.sandbox.headRef);
    const heldout = runHeldout(c, final.dir);
    log(`${c.name}: final head ${head.slice(0, 7)}; held-out test ${heldout.passed ? 'passes' : 'fails'}`);
    const changed = await world.sandbox.originGit(['diff', '--name-only', prHead, head]);
    return {
      ...empty,
      ...judged,
      ...setupFacts(r.report),
      fixed: heldout.passed,
      fixFiles: changed.stdout.split('\n').filter(Boolean),
      leftovers: leftovers(checkout),
      rounds: Number(r.outputs.rounds ?? 0),
      status: r.outputs.status ?? 'failed',
      tokens: Number(r.outputs.tokens ?? 0),
      costUsd: Number(r.outputs['cost-usd'] ?? 0),
      wallSeconds,
    };
  } finally {
    await world.close();
    prepared.cleanup();
  }
}
