import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROUND_TRAILER, fixCommitMessage } from '../../src/fix/commit-message.js';
import { forbiddenPaths } from '../../src/fix/guard.js';
import { finding } from '../factories.js';

describe('forbiddenPaths', () => {
  it('refuses workflow files and the workflows folder itself', () => {
    expect(
      forbiddenPaths(['.github/workflows/ci.yml', './.github/workflows/release.yaml', '.github/workflows']),
    ).toHaveLength(3);
  });

  it('refuses paths outside the repository', () => {
    const bad = ['../outside.txt', '/etc/passwd', 'src/../../escape.js', 'src\\..\\..\\win.js'];
    expect(forbiddenPaths(bad)).toEqual(bad);
  });

  it('allows ordinary paths, other .github files and names that only look like ..', () => {
    const ok = ['src/math.js', '.github/dependabot.yml', '.github/workflows-notes.md', 'docs/..hidden.md', 'a..b/c.js'];
    expect(forbiddenPaths(ok)).toEqual([]);
  });

  it('returns only the forbidden ones, in order', () => {
    expect(forbiddenPaths(['src/a.js', '.github/workflows/x.yml', 'b.js', '../c'])).toEqual([
      '.github/workflows/x.yml',
      '../c',
    ]);
  });
});

describe('fixCommitMessage', () => {
  const findings = [
    finding({ id: 'BUG-5bb51bb7', title: 'add() subtracts instead of adding' }),
    finding({ id: 'SEC-1a2b3c4d', title: 'SQL query built\nby string concatenation' }),
  ];
  const msg = fixCommitMessage(
    2,
    [
      { findingId: 'BUG-5bb51bb7', description: 'use +' },
      { findingId: 'SEC-1a2b3c4d', description: 'parameterised' },
      { findingId: 'QUAL-0badc0de', description: 'Removed the\n duplicated rounding' },
    ],
    findings,
  );

  it('lists every fixed id with the finding title (or the fixer description) on one line', () => {
    expect(msg.split('\n')[0]).toBe('fix: address 3 review findings (round 2)');
    expect(msg).toContain('- BUG-5bb51bb7: add() subtracts instead of adding\n');
    expect(msg).toContain('- SEC-1a2b3c4d: SQL query built by string concatenation\n');
    expect(msg).toContain('- QUAL-0badc0de: Removed the duplicated rounding\n');
  });

  it('ends with the Review-Loop-Round trailer as its last line', () => {
    const lines = msg.trimEnd().split('\n');
    expect(lines[lines.length - 1]).toBe(`${ROUND_TRAILER}: 2`);
  });

  const home = mkdtempSync(path.join(tmpdir(), 'unit-trailers-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('git itself reads the trailer', () => {
    const r = spawnSync('git', ['interpret-trailers', '--parse'], {
      input: msg,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' },
    });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('Review-Loop-Round: 2');
  });

  it('says so when nothing was reported fixed, still with the trailer', () => {
    const m = fixCommitMessage(1, [], []);
    expect(m.split('\n')[0]).toBe('fix: address 0 review findings (round 1)');
    expect(m).toContain('- (no finding reported fixed)');
    expect(m.trimEnd().endsWith('Review-Loop-Round: 1')).toBe(true);
  });
});
