// A fix round's world for the direct tests of src/fix: the git sandbox (a bare origin and a
// checkout on the PR branch), the e2e suite's scripted agent behind the real `command` adapter,
// and a FixEnv as loop-steps.ts builds one, without the sandbox user (isolation is tested in
// test/sandbox). One world per test file; reset() puts origin and the checkout back to the PR head.
import { readFileSync, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRegistry } from '../../src/agents/registry.js';
import type { FixEnv } from '../../src/fix/env.js';
import { createGit, type Git } from '../../src/git/runner.js';
import type { PrContext } from '../../src/domain/pull-request.js';
import { loadPrompts, type Prompts } from '../../src/roles/prompts.js';
import { createGitSandbox, type GitSandbox } from '../fakes/git-sandbox.js';
import { meta, prContext, PROMPTS_URL } from '../factories.js';

const SCRIPTED_AGENT = fileURLToPath(new URL('../fakes/scripted-agent.mjs', import.meta.url));

/** One rule of the scripted agent (test/fakes/scripted-agent.mjs describes every field). */
type Rule = Record<string, unknown>;

/** What the scripted agent saw in one call. */
interface AgentCall {
  role: string;
  name: string;
  round: number;
  prompt: string;
  /** The call's context folder (PR data, payload, patch), still there after the call. */
  contextDir: string;
}

export interface FixWorld {
  sandbox: GitSandbox;
  /** Git in the checkout with an author identity, as the action's own git has one. */
  git: Git;
  ctx: () => PrContext;
  /** The scripted agents' rules for the next calls. */
  script(rules: Rule[]): Promise<void>;
  env(over?: Partial<FixEnv>): FixEnv;
  calls(): AgentCall[];
  logs: string[];
  /** The sha of the PR branch on origin. */
  originHead(): Promise<string>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function createFixWorld(): Promise<FixWorld> {
  const sandbox = await createGitSandbox();
  const root = await mkdtemp(path.join(tmpdir(), 'fix-world-'));
  const git = createGit(sandbox.workDir, { env: sandbox.devEnv });
  const prompts: Prompts = await loadPrompts(PROMPTS_URL);
  const logFile = path.join(root, 'agents.jsonl');
  let scenarios = 0;
  let scenario = '';
  const logs: string[] = [];
  const scratch = () => path.join(root, 'scratch');
  return {
    sandbox,
    git,
    logs,
    ctx: () =>
      prContext({ meta: meta({ headSha: sandbox.headSha, headRef: sandbox.headRef, baseSha: sandbox.baseSha }) }),
    async script(rules) {
      // A new file each time: the agent marks `once` rules used beside its scenario file.
      scenario = path.join(root, `scenario-${++scenarios}.json`);
      await writeFile(scenario, JSON.stringify({ rules }));
    },
    env(over = {}) {
      const agentEnv = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        SCRIPTED_AGENT_SCENARIO: scenario,
        SCRIPTED_AGENT_LOG: logFile,
      };
      return {
        registry: createRegistry({ agentCommand: `'${process.execPath}' '${SCRIPTED_AGENT}'`, baseEnv: agentEnv }),
        prompts,
        workDir: sandbox.workDir,
        scratchDir: scratch(),
        timeoutMs: 30_000,
        git,
        fixer: { agent: 'command', model: 'scripted-fixer' },
        gateMaxLoops: 2,
        verify: [],
        dryRun: false,
        verifyEnv: sandbox.devEnv,
        redact: (t) => t,
        log: (l) => logs.push(l),
        session: { id: null, history: [] },
        commitExclude: [],
        confirm: 'none',
        alreadyConfirmed: new Set(),
        beforePush: async () => false,
        pushRemote: 'origin',
        ...over,
      };
    },
    calls() {
      if (!existsSync(logFile)) return [];
      return readFileSync(logFile, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const { role, name, round, prompt, contextDir } = JSON.parse(l) as AgentCall;
          return { role, name, round, prompt, contextDir };
        });
    },
    async originHead() {
      return (await sandbox.originGit(['rev-parse', `refs/heads/${sandbox.headRef}`])).stdout.trim();
    },
    async reset() {
      await sandbox.originGit(['update-ref', `refs/heads/${sandbox.headRef}`, sandbox.headSha]);
      await git(['reset', '--quiet', '--hard', sandbox.headSha]);
      await git(['clean', '--quiet', '-ffdx']);
      await rm(scratch(), { recursive: true, force: true });
      await mkdir(scratch());
      await rm(logFile, { force: true });
      logs.length = 0;
    },
    async close() {
      await sandbox.cleanup();
      await rm(root, { recursive: true, force: true });
    },
  };
}
