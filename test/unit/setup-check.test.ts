// A failed setup as the action's own check: a finding for the fixer only when the PR touches what
// an install reads, within the attempt budget of a failing listed check; otherwise the report says
// the environment may be the cause. And the report's and the reviewers' view of what ran.
import { describe, expect, it } from 'vitest';
import {
  installInputs,
  registryConfig,
  SETUP_FINDING_ID,
  setupVerdict,
  withSetupVerdict,
} from '../../src/ci/setup-check.js';
import type { CommandsRun, ReviewRoundRecord } from '../../src/domain/findings.js';
import { setupSection } from '../../src/report/markdown-setup.js';
import { setupContextFiles } from '../../src/roles/setup-data.js';
import { decide } from '../../src/termination.js';

const FAILED: CommandsRun = {
  ok: false,
  durationMs: 4_200,
  results: [
    { command: 'npm ci', exitCode: 1, durationMs: 4_200, timedOut: false, outputTail: 'npm ERR! lock mismatch' },
  ],
};
const SHA = 'abcdef0123456789abcdef0123456789abcdef01';
const base = { sha: SHA, run: FAILED, commands: ['npm ci'], attempts: 0, maxAttempts: 2 };

describe('installInputs', () => {
  it('finds manifests and lock files at any depth, and files a setup command names', () => {
    const changed = ['src/a.js', 'packages/x/package.json', 'Cargo.lock', 'requirements/ci.txt', 'tools/bootstrap.sh'];
    expect(installInputs(changed, ['./tools/bootstrap.sh --quiet'])).toEqual([
      'packages/x/package.json',
      'Cargo.lock',
      'requirements/ci.txt',
      'tools/bootstrap.sh',
    ]);
    expect(installInputs(['src/a.js', 'README.md'], ['npm ci'])).toEqual([]);
  });

  it('tells registry configuration, where an install fetches from', () => {
    expect(registryConfig(['.npmrc', 'sub/.npmrc', '.cargo/config.toml', 'pip.conf', 'package.json'])).toEqual([
      '.npmrc',
      'sub/.npmrc',
      '.cargo/config.toml',
      'pip.conf',
    ]);
  });
});

describe('setupVerdict', () => {
  it('is no verdict when setup passed', () => {
    expect(setupVerdict({ ...base, run: { ...FAILED, ok: true }, changed: ['package.json'] })).toBeNull();
  });

  it("is the environment's when the PR touches nothing an install reads: no finding", () => {
    const v = setupVerdict({ ...base, changed: ['src/a.js'] });
    expect(v).toEqual({ kind: 'environment' });
    expect(withSetupVerdict(null, SHA, v)).toBeNull();
  });

  it('is a P1 finding with the fenced output tail when the PR touches a lock file', () => {
    const v = setupVerdict({ ...base, changed: ['src/a.js', 'package-lock.json'] });
    expect(v?.kind).toBe('finding');
    const f = v!.kind === 'finding' ? v!.finding : null;
    expect(f).toMatchObject({ id: SETUP_FINDING_ID, priority: 'P1', title: 'setup fails on this head' });
    expect(f!.description).toContain('package-lock.json');
    expect(f!.description).toMatch(/```text\n[^]*npm ERR! lock mismatch/);
    const ci = withSetupVerdict(null, SHA, v)!;
    expect(ci.findings.map((x) => x.id)).toEqual([SETUP_FINDING_ID]);
  });

  it('is escalated to a human past ci-fix-attempts, which ends the loop', () => {
    const v = setupVerdict({ ...base, attempts: 2, changed: ['package.json'] });
    expect(v).toMatchObject({ kind: 'escalated', attempts: 2 });
    const ci = withSetupVerdict(null, SHA, v)!;
    const rec = { round: 1, ci, counts: { p0: 0, p1: 0, p2: 0, p3: 0 } } as unknown as ReviewRoundRecord;
    expect(decide(rec, { canPush: true, reason: null }, null)?.status).toBe('manual');
  });
});

describe("what the report and the reviewers read of setup's run", () => {
  const rec = (setup: NonNullable<ReviewRoundRecord['setup']>) => ({ headSha: SHA, setup }) as ReviewRoundRecord;

  it('shows the durations, and the failed command with its output fenced', () => {
    const ok: CommandsRun = { ok: true, durationMs: 61_000, results: [{ ...FAILED.results[0]!, exitCode: 0 }] };
    const text = setupSection(rec({ setup: FAILED, headTests: null, environment: true }))!;
    expect(text).toContain('4.2 s');
    expect(text).toMatch(/maybe in the environment/);
    expect(text).toMatch(/```text\nnpm ERR! lock mismatch\n```/);
    expect(setupSection(rec({ setup: ok, headTests: ok }))).toMatch(/tests on this head \| ✅ passed \| 1m 01s/);
    expect(setupSection(rec({ setup: null, headTests: null }))).toBeNull();
    // Past setup's time limit the command was stopped: the report says so, with its tail.
    const slow = { ...FAILED, results: [{ ...FAILED.results[0]!, exitCode: null, timedOut: true }] };
    expect(setupSection(rec({ setup: slow, headTests: null }))).toMatch(/`npm ci`'s output \(timed out\)/);
  });

  it('gives reviewers each command, its exit code and its tail, fenced as data', () => {
    const files = setupContextFiles({ setup: FAILED, headTests: null });
    expect(Object.keys(files)).toEqual(['setup.md']);
    expect(files['setup.md']).toContain('exited with 1');
    expect(files['setup.md']).toMatch(/```text\nnpm ERR! lock mismatch\n```/);
  });
});
