// Runs the real bundled dist/index.js the way the Actions runner does: INPUT_* and
// GITHUB_* variables, an event file, GITHUB_OUTPUT/GITHUB_STEP_SUMMARY files, cwd = a
// checkout of a bare origin, against the fake GitHub on 127.0.0.1.
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, onTestFinished } from 'vitest';
import { actionNode } from './action-node.js';
import { handOver, reachableBundle, reachableNode, runnerUser, type RunnerUser } from './runner-user.js';
import { createGitSandbox, type Clone, type GitSandbox, type GitSandboxOptions } from '../fakes/git-sandbox.js';
import { startFakeGitHub, type FakeGitHub, type FakeGitHubOptions, type FakePullInput } from '../fakes/github/index.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// E2E_DIST runs the suite against another build (e.g. the last commit's, to show that a
// security test fails before its fix).
const DIST = process.env.E2E_DIST ?? path.join(ROOT, 'dist/index.js');
/**
 * The scripts agents run (the scripted agent, the token hunter) run as the action's sandbox
 * user, which cannot enter a checkout of this repository kept in a private folder (`mktemp -d`
 * makes it 0700). So each test file runs copies from a folder of its own that anyone may read.
 */
const AGENT_SCRIPTS = mkdtempSync(path.join(tmpdir(), 'e2e-agent-scripts-'));
chmodSync(AGENT_SCRIPTS, 0o755);
process.on('exit', () => rmSync(AGENT_SCRIPTS, { recursive: true, force: true }));
/** A copy of test/fakes/<name>, readable by the sandbox user. */
export function agentScript(name: string): string {
  const copy = path.join(AGENT_SCRIPTS, name);
  if (!existsSync(copy)) {
    copyFileSync(path.join(ROOT, 'test/fakes', name), copy);
    chmodSync(copy, 0o644);
  }
  return copy;
}
export const SCRIPTED_AGENT = agentScript('scripted-agent.mjs');
export const OWNER = 'octo-org';
const REPO = 'demo-repo';
export const TOKEN = 'ghs_e2eFakeToken0123456789abcdefABCDEF';
/** The workflow file every run of the harness belongs to (GITHUB_WORKFLOW_REF). */
export const WORKFLOW_PATH = '.github/workflows/pr-review-loop.yml';

export interface ScenarioRule {
  role?: string;
  name?: string;
  /** The model the call asked for (REVIEW_LOOP_MODEL). */
  model?: string;
  round?: number;
  findingTitle?: string;
  /** Used up after its first match. */
  once?: boolean;
  answer?: unknown;
  fixAll?: boolean;
  rejectAll?: string;
  edits?: Record<string, string | null>;
  commit?: string;
  exitCode?: number;
  stderr?: string;
  sleepMs?: number;
  /** With fixAll: findings whose title holds a key are rejected with its value as the reason. */
  rejectTitles?: Record<string, string>;
  /** With fixAll: findings whose title holds a key are deferred with its value as the reason. */
  deferTitles?: Record<string, string>;
  /** A shell command the agent runs in the checkout first (the project's tests), logged as `ran`. */
  run?: string;
  /** What the call spent, written to $REVIEW_LOOP_USAGE_FILE (the command agent's usage report). */
  usage?: { inputTokens?: number; outputTokens?: number; costUsd?: number };
}

export interface World {
  sandbox: GitSandbox;
  github: FakeGitHub;
  dir: string;
  /** Runs dist/index.js once; each call gets a fresh checkout like actions/checkout. */
  run(opts?: RunOptions): Promise<RunResult>;
  agentCalls(): AgentCall[];
  /** The fix-payload.json each fixer call was given, in call order (read from its context folder). */
  fixPayloads(): FixPayloadSeen[];
  /** Resolves once an agent call matching `pred` has started (the log entry is written first). */
  waitForAgentCall(pred: (c: AgentCall) => boolean, timeoutMs?: number): Promise<AgentCall>;
  /** Commits on the PR head branch in origin, newest first. */
  headLog(): Promise<{ sha: string; parents: string[]; subject: string; body: string }[]>;
  close(): Promise<void>;
}

export interface AgentCall {
  role: string;
  name: string;
  model: string;
  round: number;
  contextDir: string;
  /** The prompt the agent read on stdin. */
  prompt: string;
  env: Record<string, string>;
  /** The command its rule ran in the checkout (`run`), its exit code and output. */
  ran?: { command: string; code: number | null; output: string };
}

interface FixPayloadSeen {
  round: number;
  issuesToFix: { id: string; title: string; priority: string; stuck?: boolean }[];
  optionalIssues: { id: string; title: string }[];
}

export interface ReplyEvent {
  id: number;
  inReplyTo: number;
  body: string;
  login: string;
  type?: 'User' | 'Bot';
  action?: string;
  forkHead?: string;
}

export interface RunOptions {
  /**
   * Runs beside the action once it has started, with a way to signal it (as the runner signals a
   * cancelled job); the run's result waits for both.
   */
  interrupt?: (signal: (name: NodeJS.Signals) => void) => Promise<void>;
  inputs?: Record<string, string>;
  rules?: ScenarioRule[];
  eventName?:
    | 'pull_request'
    | 'workflow_dispatch'
    | 'issue_comment'
    | 'pull_request_target'
    | 'workflow_run'
    | 'pull_request_review_comment';
  action?: string;
  /** What the checkout is at: the merge ref (pull_request default), or the base branch. */
  checkout?: 'merge' | 'base' | 'head';
  /** `createdAt` is the comment's created_at (default: now, as when GitHub sends the event right away). */
  comment?: { body: string; login: string; type?: 'User' | 'Bot'; createdAt?: string };
  /**
   * pull_request_review_comment: the reply (its REST id, the comment it replies to), its author;
   * `forkHead` makes the PR a public fork's (GitHub then gives the job a read-only token).
   */
  reply?: ReplyEvent;
  extraEnv?: Record<string, string>;
  /** Runs on the fresh checkout before the action starts (e.g. to leave it dirty). */
  prepare?: (checkout: Clone) => Promise<void>;
  /**
   * The fake GitHub knows this run (GET actions/runs/{GITHUB_RUN_ID}), as GitHub knows every
   * run; default true. false: a run id GitHub does not know (the action then trusts no state).
   */
  registerRun?: boolean;
  /** Kills the action (SIGKILL) if it has not ended after this long: a hung run fails its test, not the machine. */
  killAfterMs?: number;
  /** Another build's dist/index.js (the token bench runs the build before a change); default DIST. */
  dist?: string;
  /**
   * Start the action as the suite's ordinary user with passwordless sudo, as a GitHub-hosted
   * runner does (test/e2e/runner-user.ts); the world is handed over to that user first.
   */
  asRunnerUser?: boolean;
  /** Start the action as this user instead (e.g. one without sudo: a runner that cannot isolate). */
  asUser?: RunnerUser;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  report: unknown;
}

type WorldOptions = { sandbox?: GitSandboxOptions; github?: Partial<FakeGitHubOptions>; pull?: Partial<FakePullInput> };

/**
 * A world owned by the test that asks for it: it is closed when that test ends, however it ends.
 * A test that runs past its timeout goes on in the background while vitest moves to the next test;
 * most e2e files keep their world in one module variable, so such a test used to run the action in
 * the next test's world, or overwrite that variable with a world made too late. Now its world is
 * closed when it times out (a closed world refuses to run), and a world finished after its test
 * ended is closed at once and never handed back.
 */
export async function createWorld(opts: WorldOptions = {}): Promise<World> {
  let testEnded = false;
  let made: World | null = null;
  // Registered before the first await, so it belongs to the test that called (not the next one).
  // A world made in beforeAll (shared by a file's tests) and the scripts' worlds (demo, bench: run
  // outside vitest) belong to no test: their makers close them.
  if (process.env.VITEST && insideTest()) {
    onTestFinished(async () => {
      testEnded = true;
      await made?.close();
    });
  }
  const world = await buildWorld(opts);
  if (testEnded) {
    await world.close();
    throw new Error('the test ended before its world was ready');
  }
  made = world;
  return world;
}

function insideTest(): boolean {
  return expect.getState().currentTestName !== undefined;
}

async function buildWorld(opts: WorldOptions): Promise<World> {
  const sandbox = await createGitSandbox({ prNumber: 7, ...opts.sandbox });
  const dir = await mkdtemp(path.join(tmpdir(), 'e2e-'));
  // The scripted agent runs as the action's sandbox user: it must reach its scenario and
  // append to the call log (a sticky, world-writable folder, like /tmp).
  await chmod(dir, 0o755);
  const agentIo = path.join(dir, 'agent-io');
  await mkdir(agentIo, { mode: 0o1777 });
  await chmod(agentIo, 0o1777);
  const github = await startFakeGitHub({
    owner: OWNER,
    repo: REPO,
    originDir: sandbox.originDir,
    ...(sandbox.fork ? { forkDirs: { [sandbox.fork.fullName]: sandbox.fork.dir } } : {}),
    repoPermissions: { admin: false, maintain: false, push: true, triage: true, pull: true },
    ...opts.github,
    pulls: [
      {
        number: 7,
        title: 'Refactor add',
        body: 'Makes add faster.',
        user: 'octocat',
        headRef: sandbox.headRef,
        baseRef: sandbox.baseRef,
        ...opts.pull,
      },
    ],
  });
  const log = path.join(agentIo, 'agent-calls.jsonl');
  await writeFile(log, '', { mode: 0o666 });
  await chmod(log, 0o666);
  let runs = 0;
  let closed = false;
  let closing: Promise<void> | null = null;
  // Actions still running when the world closes: a test that ran past its timeout leaves its run
  // going, and vitest then runs afterEach. Deleting the world under that run gave confusing failures
  // (a checkout gone mid-run, an origin without its base branch) and let it run on into the next test.
  const running = new Set<RunningAction>();
  const agentCalls = (): AgentCall[] =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
  return {
    sandbox,
    github,
    dir,
    agentCalls,
    fixPayloads: () =>
      agentCalls()
        .filter((c) => c.role === 'fixer')
        .map((c) => ({
          round: c.round,
          ...JSON.parse(readFileSync(path.join(c.contextDir, 'fix-payload.json'), 'utf8')),
        })),
    async waitForAgentCall(pred, timeoutMs = 30_000) {
      for (const until = Date.now() + timeoutMs; Date.now() < until; await sleep(25)) {
        const hit = agentCalls().find(pred);
        if (hit) return hit;
      }
      throw new Error('timed out waiting for an agent call');
    },
    async headLog() {
      // A fork PR's branch lives in the fork.
      const out = await (sandbox.fork?.git ?? sandbox.originGit)([
        'log',
        '--format=%H%x1f%P%x1f%s%x1f%b%x1e',
        `refs/heads/${sandbox.headRef}`,
      ]);
      return out.stdout
        .split('\x1e')
        .map((r) => r.trim())
        .filter(Boolean)
        .map((r) => {
          const [sha, parents, subject, body] = r.split('\x1f');
          return { sha: sha!, parents: parents!.split(' ').filter(Boolean), subject: subject!, body: body ?? '' };
        });
    },
    async run(o = {}) {
      if (closed) throw new Error('this world is closed: the test ran past its timeout');
      const n = ++runs;
      const runDir = path.join(dir, `run-${n}`);
      const head = (
        await (sandbox.fork?.git ?? sandbox.originGit)(['rev-parse', `refs/heads/${sandbox.headRef}`])
      ).stdout.trim();
      const ref = o.checkout === 'base' ? sandbox.baseRef : o.checkout === 'head' ? sandbox.headRef : sandbox.mergeRef;
      const checkout = await sandbox.cloneAt(ref);
      await o.prepare?.(checkout);
      const scenario = path.join(agentIo, `scenario-${n}.json`);
      await writeFile(scenario, JSON.stringify({ rules: o.rules ?? [] }));
      const eventName = o.eventName ?? 'pull_request';
      const eventPath = path.join(dir, `event-${n}.json`);
      await writeFile(
        eventPath,
        JSON.stringify(buildEvent(eventName, { head, sandbox, action: o.action, comment: o.comment, reply: o.reply })),
      );
      const outputFile = path.join(dir, `output-${n}.txt`);
      const summaryFile = path.join(dir, `summary-${n}.md`);
      await writeFile(outputFile, '');
      await writeFile(summaryFile, '');
      const inputs: Record<string, string> = {
        'github-token': TOKEN,
        agent: 'command',
        'agent-command': `node ${SCRIPTED_AGENT}`,
        // SCRIPTED_AGENT_IO names the folder the scripted agents write in: a call sees only
        // the folders its workflow-given command line and variables name (src/sandbox/named-paths.ts).
        'agent-env': 'SCRIPTED_AGENT_SCENARIO,SCRIPTED_AGENT_LOG,SCRIPTED_AGENT_IO',
        reviewers: 'command:scripted-model',
        // The action refuses mode: fix without verify; a test that checks fixes names its commands.
        verify: 'none',
        ...(eventName === 'workflow_dispatch' ? { pr: '7' } : {}),
        ...o.inputs,
      };
      const env: NodeJS.ProcessEnv = {
        ...sandbox.env,
        GITHUB_ACTIONS: 'true',
        GITHUB_EVENT_NAME: eventName,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
        GITHUB_API_URL: github.url,
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_RUN_ID: String(1000 + n),
        GITHUB_WORKFLOW: 'pr-review-loop',
        GITHUB_WORKFLOW_REF: workflowRef(eventName, sandbox.baseRef),
        GITHUB_JOB: 'review-loop',
        GITHUB_TOKEN: TOKEN,
        ACTIONS_RUNTIME_TOKEN: 'actions-runtime-secret-value',
        RUNNER_TEMP: runDir,
        SCRIPTED_AGENT_SCENARIO: scenario,
        SCRIPTED_AGENT_LOG: log,
        SCRIPTED_AGENT_IO: agentIo,
        PR_REVIEW_LOOP_RETRY_BASE_MS: '10',
        PR_REVIEW_LOOP_HEAD_POLL_MS: '50',
        PR_REVIEW_LOOP_CHECKS_POLL_MS: '50',
        ...o.extraEnv,
      };
      for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
      if (o.registerRun !== false) registerRun(github, env, eventName, head);
      await import('node:fs/promises').then((fs) => fs.mkdir(runDir, { recursive: true }));
      let as: RunnerUser | undefined = o.asUser;
      const handedOver = [sandbox.root, dir, ...(sandbox.fork ? [path.dirname(sandbox.fork.dir)] : [])];
      if (o.asRunnerUser) {
        as = runnerUser() ?? undefined;
        if (!as) throw new Error('asRunnerUser: the suite made no runner user (it needs root)');
      }
      if (as) {
        env.HOME = as.home;
        handOver(as, handedOver);
      }
      const action = spawnNode(o.dist ?? DIST, checkout.dir, env, o.killAfterMs, as);
      running.add(action);
      const beside = o.interrupt?.((name) => action.signal(name));
      const r = await action.done.finally(() => running.delete(action));
      // Back to the tests' user: the tests' own git reads these repositories next.
      if (as) handOver({ ...as, uid: process.getuid!(), gid: process.getgid!() }, handedOver);
      await beside;
      const outputs = parseOutputFile(await readFile(outputFile, 'utf8'));
      const report =
        outputs['report-json'] && existsSync(outputs['report-json'])
          ? JSON.parse(readFileSync(outputs['report-json'], 'utf8'))
          : null;
      return { ...r, outputs, summary: await readFile(summaryFile, 'utf8'), report };
    },
    close() {
      // Idempotent: the owning test's end and the file's afterEach both close it.
      closing ??= (async () => {
        closed = true;
        await Promise.all([...running].map((a) => a.stop()));
        await github.close();
        await sandbox.cleanup();
        await rm(dir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

function buildEvent(
  eventName: string,
  o: {
    head: string;
    sandbox: GitSandbox;
    action?: string | undefined;
    comment?: RunOptions['comment'] | undefined;
    reply?: ReplyEvent | undefined;
  },
) {
  const repository = { name: REPO, full_name: `${OWNER}/${REPO}`, owner: { login: OWNER } };
  const sender = { login: 'octocat', type: 'User' };
  const fixture = (name: string) => {
    const file = path.join(ROOT, 'test/fixtures/events', name);
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  };
  if (eventName === 'workflow_run') {
    // What GitHub sends when a PR's CI run fails (its fields as in @octokit/openapi-webhooks).
    return {
      action: o.action ?? 'completed',
      workflow: { id: 42, name: 'CI', path: '.github/workflows/ci.yml' },
      workflow_run: {
        id: 7_000_001,
        name: 'CI',
        path: '.github/workflows/ci.yml',
        head_sha: o.head,
        head_branch: o.sandbox.headRef,
        event: 'pull_request',
        status: 'completed',
        conclusion: 'failure',
        run_attempt: 1,
        pull_requests: [{ number: 7, head: { ref: o.sandbox.headRef, sha: o.head }, base: { ref: o.sandbox.baseRef } }],
        actor: sender,
        triggering_actor: sender,
      },
      repository,
      sender,
    };
  }
  if (eventName === 'workflow_dispatch')
    return {
      ...fixture('workflow_dispatch.json'),
      inputs: { pr: '7' },
      ref: `refs/heads/${o.sandbox.baseRef}`,
      repository,
      sender,
    };
  if (eventName === 'issue_comment') {
    const c = o.comment ?? { body: '/review-loop', login: 'octocat' };
    const base = fixture('issue_comment.created.json');
    return {
      ...base,
      action: 'created',
      issue: {
        ...(base.issue ?? {}),
        number: 7,
        pull_request: { url: `https://api.github.com/repos/${OWNER}/${REPO}/pulls/7` },
      },
      comment: {
        ...(base.comment ?? {}),
        id: 9001,
        body: c.body,
        user: { login: c.login, type: c.type ?? 'User' },
        created_at: c.createdAt ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      },
      repository,
      sender: { login: c.login, type: c.type ?? 'User' },
    };
  }
  if (eventName === 'pull_request_review_comment') {
    if (!o.reply) throw new Error('a pull_request_review_comment run needs the reply option');
    const r = o.reply;
    const base = fixture('pull_request_review_comment.created.json');
    const user = { login: r.login, type: r.type ?? 'User' };
    const own = `${OWNER}/${REPO}`;
    return {
      ...base,
      action: r.action ?? 'created',
      comment: { ...base.comment, id: r.id, in_reply_to_id: r.inReplyTo, body: r.body, user, commit_id: o.head },
      pull_request: {
        ...base.pull_request,
        number: 7,
        head: {
          ...base.pull_request.head,
          ref: o.sandbox.headRef,
          sha: o.head,
          repo: { full_name: r.forkHead ?? own },
        },
        base: { ...base.pull_request.base, ref: o.sandbox.baseRef, sha: o.sandbox.baseSha, repo: { full_name: own } },
      },
      repository: { ...repository, private: false },
      sender: user,
    };
  }
  const base = fixture(`pull_request.${o.action === 'synchronize' ? 'synchronize' : 'opened'}.json`);
  return {
    ...base,
    action: o.action ?? 'opened',
    number: 7,
    pull_request: {
      ...(base.pull_request ?? {}),
      number: 7,
      head: {
        ...(base.pull_request?.head ?? {}),
        ref: o.sandbox.headRef,
        sha: o.head,
        repo: { full_name: `${OWNER}/${REPO}` },
      },
      base: {
        ...(base.pull_request?.base ?? {}),
        ref: o.sandbox.baseRef,
        sha: o.sandbox.baseSha,
        repo: { full_name: `${OWNER}/${REPO}` },
      },
    },
    repository,
    sender,
  };
}

/** `<owner>/<repo>/<workflow file>@<ref>`, as the runner sets GITHUB_WORKFLOW_REF. */
function workflowRef(eventName: string, baseRef: string): string {
  const ref = eventName.startsWith('pull_request') ? 'refs/pull/7/merge' : `refs/heads/${baseRef}`;
  return `${OWNER}/${REPO}/${WORKFLOW_PATH}@${ref}`;
}

/** Adds the run the environment names to the fake, unless a test already added that id. */
function registerRun(github: FakeGitHub, env: NodeJS.ProcessEnv, event: string, headSha: string): void {
  const id = Number(env.GITHUB_RUN_ID);
  if (!Number.isSafeInteger(id) || github.state.workflowRuns.has(id)) return;
  const path = /^[^/]+\/[^/]+\/([^@]+)@/.exec(env.GITHUB_WORKFLOW_REF ?? '')?.[1] ?? WORKFLOW_PATH;
  github.state.addWorkflowRun({ id, path, name: env.GITHUB_WORKFLOW ?? path, event, headSha });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface RunningAction {
  done: Promise<{ code: number; stdout: string; stderr: string }>;
  /** Kills the action's process group and waits until it has exited. */
  stop(): Promise<void>;
  /** Sends a signal to the action's own process, as the runner does. */
  signal(name: NodeJS.Signals): void;
}

function spawnNode(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  killAfterMs?: number,
  as?: RunnerUser,
): RunningAction {
  // As the runner user: setpriv execs node in place (same pid), with that user's groups.
  const argv = as
    ? [
        'setpriv',
        '--reuid',
        String(as.uid),
        '--regid',
        String(as.gid),
        '--init-groups',
        '--',
        reachableNode(actionNode()),
        reachableBundle(script),
      ]
    : [actionNode(), script];
  // Its own process group (detached), so stop() ends what the action started in that group too.
  const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  // 'exit', not 'close': a process the action left behind may still hold its output pipes.
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
    await exited;
  };
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const killer =
      killAfterMs === undefined
        ? null
        : setTimeout(() => {
            stderr += `\n[harness] killed: the action had not ended after ${killAfterMs} ms\n`;
            child.kill('SIGKILL');
          }, killAfterMs);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (killer) clearTimeout(killer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
  return { done, stop, signal: (name) => child.kill(name) };
}

/** Parses the runner's `name<<delimiter` file format written by @actions/core. */
function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (m) {
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!);
      out[m[1]!] = value.join('\n');
    } else if (lines[i]!.includes('=')) {
      const [k, ...v] = lines[i]!.split('=');
      out[k!] = v.join('=');
    }
  }
  return out;
}
