// When the action runs setup and the head's test run, on a real checkout with real processes: not
// at all where verify may not run (a fork PR without allow-fork-fixes, no isolation); the head test
// run once per head, the verify run of a head the loop pushed reused; setup again before verify
// only when the fix changed what an install reads, or setup had failed.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SETUP_FINDING_ID } from '../../src/ci/setup-check.js';
import { prepareForAgents } from '../../src/git/prepare.js';
import { installProject, projectSetup, type ProjectSetupWiring } from '../../src/project-setup.js';
import { loadPrompts } from '../../src/roles/prompts.js';
import { parseCallLimits } from '../../src/sandbox/call-limits.js';
import { createGitSandbox, type GitSandbox } from '../fakes/git-sandbox.js';
import { meta, prContext, PROMPTS_URL } from '../factories.js';

let s: GitSandbox;
beforeEach(async () => {
  s = await createGitSandbox();
});
afterEach(() => s.cleanup());

async function wiring(over: Partial<ProjectSetupWiring['config']> = {}, withheld: string | null = null) {
  const logs: string[] = [];
  const attempts: Record<string, number> = {};
  const w: ProjectSetupWiring = {
    config: {
      setup: ['echo installing >> setup-runs.log'],
      verify: ['node test.js'],
      verifyHead: true,
      callLimits: parseCallLimits('setup=1m'),
      ciFixAttempts: 2,
      ...over,
    },
    withheld,
    git: s.git,
    cwd: s.workDir,
    setupEnv: s.env,
    verifyEnv: s.env,
    checkout: await prepareForAgents(s.git, s, () => undefined),
    prompts: await loadPrompts(PROMPTS_URL),
    redact: (t) => t,
    log: (l) => logs.push(l),
  };
  const ci = { attempts: () => ({ ...attempts }), passed: (id: string) => void delete attempts[id] };
  return { w, logs, attempts, ci };
}

const ctx = (files: string[] = ['src/math.js']) =>
  prContext({
    meta: meta({ headSha: s.headSha, baseSha: s.baseSha }),
    files: files.map((filename) => ({ filename, status: 'modified', additions: 1, deletions: 1 })),
  } as never);

it('runs nothing where verify may not run, and says why', async () => {
  const { w, logs, ci } = await wiring({}, 'the PR comes from another repository');
  const setup = projectSetup(w);
  await setup.start();
  const head = await setup.beforeReview(ctx(), { ours: false, ciOnly: false, ci });
  expect(logs).toContain('setup is not run: the PR comes from another repository');
  expect(head.record).toEqual({ setup: null, headTests: null, notRun: 'the PR comes from another repository' });
  expect(head.contextFiles).toEqual({});
  expect(setup.fixerPrompt()).toBeUndefined();
});

it('runs the head tests once per head, and reuses the verify run of a head the loop pushed', async () => {
  const { w, logs, ci } = await wiring();
  const setup = projectSetup(w);
  await setup.start();
  const first = await setup.beforeReview(ctx(), { ours: false, ciOnly: false, ci });
  expect(first.record?.setup?.ok).toBe(true);
  // The PR's planted bug: the head's tests fail, and the reviewers' files say so.
  expect(first.record?.headTests).toMatchObject({ ok: false });
  expect(first.contextFiles['head-tests.md']).toContain('exited with 1');
  expect(first.prompt).toContain('- setup: passed');
  await setup.beforeReview(ctx(), { ours: false, ciOnly: false, ci });
  expect(logs.filter((l) => l === 'head tests: node test.js')).toHaveLength(1);
  const verified = [{ command: 'node test.js', exitCode: 0, durationMs: 5, timedOut: false, outputTail: 'ok' }];
  setup.verified('f'.repeat(40), verified);
  const pushed = prContext({ meta: meta({ headSha: 'f'.repeat(40), baseSha: s.baseSha }) });
  expect((await setup.beforeReview(pushed, { ours: true, ciOnly: false, ci })).record?.headTests).toMatchObject({
    ok: true,
  });
  expect(logs.filter((l) => l === 'head tests: node test.js')).toHaveLength(1);
});

it('runs setup again before verify only when the fix changed what an install reads', async () => {
  const { w, logs } = await wiring();
  const setup = projectSetup(w);
  await setup.start();
  await setup.beforeVerify(['src/math.js']);
  expect(logs.filter((l) => l.startsWith('setup: '))).toHaveLength(1);
  await setup.beforeVerify(['src/math.js', 'package.json']);
  expect(logs.filter((l) => l.startsWith('setup: '))).toHaveLength(2);
  expect(logs).toContain('setup again before verify: the fix changed package.json');
});

it('a failed setup on a PR that touches its manifest is a finding; its attempts start again once it passes', async () => {
  // Fails the first time (a registry hiccup the fixer's lock file change happens to meet), passes then.
  const { w, attempts, ci } = await wiring({ setup: ['test -f .tried || { touch .tried; exit 4; }'] });
  const setup = projectSetup(w);
  await setup.start();
  const head = await setup.beforeReview(ctx(['package.json']), { ours: false, ciOnly: false, ci });
  expect(head.verdict?.kind).toBe('finding');
  expect(head.record?.headTests).toBeNull();
  attempts[SETUP_FINDING_ID] = 1;
  await setup.beforeVerify([]);
  await setup.beforeReview(ctx(['package.json']), { ours: true, ciOnly: false, ci });
  expect(attempts[SETUP_FINDING_ID]).toBeUndefined();
});

it('installs nothing on a fork PR without allow-fork-fixes, nor on a skipped head; else before any agent', async () => {
  const { w, logs } = await wiring();
  const base = { ...w, commandEnv: s.env, prCodeWithheld: null, config: { ...w.config, allowForkFixes: false } };
  await installProject({ ...base, fork: true, skip: false });
  expect(logs.at(-1)).toMatch(/^setup is not run: .*from another repository \(set allow-fork-fixes to run them\)$/);
  await installProject({ ...base, fork: false, skip: true });
  expect(logs.some((l) => l.startsWith('setup: '))).toBe(false);
  await installProject({ ...base, fork: true, skip: false, config: { ...base.config, allowForkFixes: true } });
  expect(logs.filter((l) => l.startsWith('setup: '))).toHaveLength(1);
});

it('verify-head: false runs no head test run; setup still runs and is reported', async () => {
  const { w, logs, ci } = await wiring({ verifyHead: false });
  const setup = projectSetup(w);
  await setup.start();
  const head = await setup.beforeReview(ctx(), { ours: false, ciOnly: false, ci });
  expect(head.record).toMatchObject({ setup: { ok: true }, headTests: null });
  expect(Object.keys(head.contextFiles)).toEqual(['setup.md']);
  expect(logs.some((l) => l.startsWith('head tests: '))).toBe(false);
});
