// An agent, a verify command and a hook — each running PR-influenced code —
// walk their ancestors' /proc/<pid>/environ and /proc/<pid>/mem and every other process's
// environ looking for the token, and leave a process behind with setsid and without the marker
// variable. With isolation (the default: these tests run as root, so the action can create its
// sandbox user) they find nothing, nothing they left survives the step, and the loop still
// reviews, fixes, verifies and pushes.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SCRIPTED_AGENT, TOKEN, type World } from '../harness.js';
import { HUNTER, huntingWorld } from '../hunter.js';
import { PRIVILEGE_PATHS, type RunnerUser } from '../runner-user.js';
import { PLANTED_BUG_RULES } from '../scenarios.js';

const RUNTIME_TOKEN = 'actions-runtime-secret-value';
const DEPLOY_KEY = 'deploy-key-not-for-pr-code-5f1c';
const NPM_TOKEN = 'npm_verifyMayHaveThis0123456789';

interface Ancestor {
  pid: number;
  cmdline: string;
  environReadable: boolean;
  environHasToken: boolean;
  mem: { opened: boolean; found: boolean };
}
interface Hunt {
  role: string;
  uid: number;
  envNames: string[];
  ancestors: Ancestor[];
  othersWithToken: number[];
  /** Command lines of what it left running. */
  sleepers: string[];
}

let world: World;
let huntLog: string;
let needlesFile: string;

let hunts: () => Hunt[];

beforeEach(async () => {
  const w = await huntingWorld([TOKEN, RUNTIME_TOKEN]);
  ({ world, huntLog, needlesFile } = w);
  hunts = () => w.hunts<Hunt>();
});
afterEach(async () => {
  // What a hunt left behind where nothing could stop it (isolation off, or not possible) goes now.
  for (const cmdline of hunts().flatMap((h) => h.sleepers)) for (const pid of running(cmdline)) process.kill(pid);
  await world.close();
});

/** Host pids of running processes whose command line is exactly `cmdline`. */
function running(cmdline: string): number[] {
  const r = spawnSync('pgrep', ['-x', '-f', cmdline], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .filter((pid) => alive(pid));
}

/** Running, not gone and not a zombie (a killed orphan waits for init to reap it). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function runWith(isolation?: string, asRunnerUser = false) {
  return world.run({
    asRunnerUser,
    rules: PLANTED_BUG_RULES,
    inputs: {
      'agent-command': `node ${HUNTER} "$REVIEW_LOOP_ROLE"; node ${SCRIPTED_AGENT}`,
      'agent-env': 'SCRIPTED_AGENT_SCENARIO,SCRIPTED_AGENT_LOG,SCRIPTED_AGENT_IO,HUNTER_LOG,HUNTER_NEEDLES_FILE',
      'verify-env': 'HUNTER_LOG,HUNTER_NEEDLES_FILE,NPM_TOKEN',
      verify: `node ${HUNTER} verify\nnpm test`,
      ...(isolation ? { isolation } : {}),
    },
    extraEnv: { HUNTER_LOG: huntLog, HUNTER_NEEDLES_FILE: needlesFile, DEPLOY_KEY, NPM_TOKEN },
  });
}

it.each(PRIVILEGE_PATHS)(
  'keeps the token out of reach of agents, verify commands and hooks, and kills what they leave behind, $how',
  async ({ asRunnerUser }) => {
    const r = await runWith(undefined, asRunnerUser);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.status).toBe('converged');

    const all = hunts();
    expect(new Set(all.map((h) => h.role))).toEqual(new Set(['hook', 'reviewer', 'fixer', 'verify']));
    for (const h of all) {
      // The hunt really ran as someone else, in a PID namespace of its own: the action is not even
      // among the processes it can see (without namespaces it is, and its environ and memory are
      // out of reach of another uid: test/sandbox/sandbox.test.ts).
      expect(h.uid, h.role).not.toBe(0);
      expect(h.ancestors.map((a) => a.cmdline).join('\n'), h.role).not.toContain('dist/index.js');
      for (const a of h.ancestors) {
        expect(a.environHasToken, `${h.role} read the token from ${a.cmdline}`).toBe(false);
        expect(a.mem.found, `${h.role} found the token in the memory of ${a.cmdline}`).toBe(false);
      }
      expect(h.othersWithToken, h.role).toEqual([]);
      // What it left behind with setsid and without the marker did not outlive the step.
      for (const cmdline of h.sleepers) expect(running(cmdline), `${h.role} left ${cmdline} running`).toEqual([]);
    }
    // Least privilege for the environment: a deploy key never reaches PR code; verify gets what
    // verify-env names, agents do not.
    for (const h of all) expect(h.envNames, h.role).not.toContain('DEPLOY_KEY');
    expect(all.find((h) => h.role === 'verify')!.envNames).toContain('NPM_TOKEN');
    expect(all.find((h) => h.role === 'fixer')!.envNames).not.toContain('NPM_TOKEN');
    // The product still did its job: the fix was pushed.
    const log = await world.headLog();
    expect(log[0]!.body).toContain('Review-Loop-Round: 1');
    expect(r.stdout).toMatch(/run as the unprivileged user prl-[0-9a-f]+/);
    // The sandbox user is really gone: its account, and no warning that removing it failed.
    const user = /run as the unprivileged user (prl-[0-9a-f]+)/.exec(r.stdout)![1]!;
    expect(spawnSync('getent', ['passwd', user]).status, `${user} is still there`).toBe(2);
    expect(r.stdout).not.toContain('removing the sandbox user');
  },
);

it('says plainly in the log and the summary when isolation is turned off', async () => {
  const r = await runWith('off');
  expect(r.outputs.status).toBe('converged');
  expect(r.stdout).toContain('::warning::Not isolated: isolation is off');
  expect(r.summary).toContain('Not isolated');
  // The reason isolation exists: as the action's own user, the token is in reach.
  expect(hunts().some((h) => h.ancestors.some((a) => a.environHasToken))).toBe(true);
});

/**
 * `nobody`, who may not use sudo: started as this user, the action runs where it cannot create a
 * sandbox user (a self-hosted runner without passwordless sudo). Its HOME is a folder of the world.
 */
function nobody(): RunnerUser {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  const home = path.join(world.dir, 'home-nobody');
  mkdirSync(home, { recursive: true });
  return { name: 'nobody', uid: id('-u'), gid: id('-g'), home };
}

const asRoot = process.getuid?.() === 0;

function runAsNobody(isolation?: string) {
  return world.run({
    asUser: nobody(),
    rules: PLANTED_BUG_RULES,
    inputs: {
      'agent-env': 'SCRIPTED_AGENT_SCENARIO,SCRIPTED_AGENT_LOG,SCRIPTED_AGENT_IO',
      'verify-env': 'HUNTER_LOG,HUNTER_NEEDLES_FILE',
      verify: `node ${HUNTER} verify\nnpm test`,
      ...(isolation ? { isolation } : {}),
    },
    extraEnv: { HUNTER_LOG: huntLog, HUNTER_NEEDLES_FILE: needlesFile },
  });
}

it.skipIf(!asRoot)(
  'isolation: auto where the runner cannot isolate: the review goes on; no fixer, verify command or hook runs',
  async () => {
    const r = await runAsNobody();
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.status).toBe('review-only');
    expect(r.outputs.p1).toBe('1');
    // The reviewer ran (as the action's own user); nothing that runs the PR's code did.
    expect(world.agentCalls().map((c) => c.role)).toEqual(['reviewer']);
    expect(hunts()).toEqual([]);
    expect((await world.headLog())[0]!.sha).toBe(world.sandbox.headSha);
    // Said plainly: in the log, the summary, and the report on the PR.
    expect(r.stdout).toMatch(/::warning::Not isolated: .*the fixer, verify commands and hooks do not run/);
    expect(r.summary).toContain('the fixer, verify commands and hooks do not run');
    expect(r.stdout).toContain('hooks are not run: this runner cannot isolate');
    expect(world.github.comments(7).at(-1)!.body).toContain('isolation: off runs them anyway');
  },
);

it.skipIf(!asRoot)("isolation: off says so: then they run, as the action's own user", async () => {
  const r = await runAsNobody('off');
  expect(r.outputs.status, r.stdout + r.stderr).toBe('converged');
  expect(new Set(hunts().map((h) => h.role))).toEqual(new Set(['hook', 'verify']));
  expect(hunts().every((h) => h.uid === nobody().uid)).toBe(true);
  expect((await world.headLog())[0]!.body).toContain('Review-Loop-Round: 1');
});
