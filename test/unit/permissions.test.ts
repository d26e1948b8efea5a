import { describe, expect, it } from 'vitest';
import { canWrite, decidePush, isBot, permissionOf, type Permission } from '../../src/github/permissions.js';
import { meta } from '../factories.js';

const fork = meta({ headRepoFullName: 'contributor/demo-repo' });

describe('decidePush', () => {
  it('same repository, fix mode, write token: can push', () => {
    expect(decidePush({ mode: 'fix', meta: meta(), allowForkFixes: false, tokenPermission: 'write' })).toEqual({
      canPush: true,
      reason: null,
    });
  });

  it('mode review is review-only whatever the token may do', () => {
    const d = decidePush({ mode: 'review', meta: meta(), allowForkFixes: true, tokenPermission: 'admin' });
    expect(d.canPush).toBe(false);
    expect(d.reason).toMatch(/review/);
  });

  it('a fork PR is review-only unless allow-fork-fixes is set', () => {
    const d = decidePush({ mode: 'fix', meta: fork, allowForkFixes: false, tokenPermission: 'admin' });
    expect(d.canPush).toBe(false);
    expect(d.reason).toContain('contributor/demo-repo');
    expect(d.reason).toContain('allow-fork-fixes');
    expect(
      decidePush({
        mode: 'fix',
        meta: fork,
        allowForkFixes: true,
        tokenPermission: 'write',
        forkPushUrl: 'https://github.com/contributor/demo-repo.git',
      }).canPush,
    ).toBe(true);
    // Without a URL for the fork there is nowhere safe to push: never the base repository.
    expect(decidePush({ mode: 'fix', meta: fork, allowForkFixes: true, tokenPermission: 'write' }).canPush).toBe(false);
  });

  it('a PR whose head repository was deleted counts as a fork', () => {
    const d = decidePush({
      mode: 'fix',
      meta: meta({ headRepoFullName: '' }),
      allowForkFixes: false,
      tokenPermission: 'write',
    });
    expect(d).toEqual({ canPush: false, reason: expect.stringContaining('deleted repository') });
  });

  it('compares repository names case-insensitively', () => {
    const d = decidePush({
      mode: 'fix',
      meta: meta({ headRepoFullName: 'Octo-Org/Demo-Repo' }),
      allowForkFixes: false,
      tokenPermission: 'write',
    });
    expect(d.canPush).toBe(true);
  });

  it.each<Permission>(['read', 'triage', 'none'])('a token with %s permission cannot push', (p) => {
    const d = decidePush({ mode: 'fix', meta: meta(), allowForkFixes: false, tokenPermission: p });
    expect(d.canPush).toBe(false);
    expect(d.reason).toContain(`"${p}"`);
  });

  it('an unknown token permission (installation token) is allowed to try', () => {
    expect(decidePush({ mode: 'fix', meta: meta(), allowForkFixes: false, tokenPermission: null }).canPush).toBe(true);
  });

  it('a token known to be read-only never pushes, and says why first', () => {
    const d = decidePush({
      mode: 'fix',
      meta: fork,
      allowForkFixes: true,
      tokenPermission: 'admin',
      forkPushUrl: 'https://x/y.git',
      readOnlyToken: 'a fork PR on pull_request',
    });
    expect(d).toEqual({ canPush: false, reason: 'the token is read-only: a fork PR on pull_request' });
  });
});

describe('permissionOf (the permissions block of GET /repos)', () => {
  const none = { admin: false, maintain: false, push: false, triage: false, pull: false };
  it("reads a user token's role", () => {
    expect(permissionOf({ ...none, pull: true, triage: true, push: true }, null)).toBe('write');
    expect(permissionOf({ ...none, pull: true }, null)).toBe('read');
    expect(permissionOf(undefined, 'none')).toBeNull();
  });

  it('all false is what every installation token gets: unknown on the base repository, none on a fork', () => {
    expect(permissionOf(none, null)).toBeNull();
    expect(permissionOf(none, 'none')).toBe('none');
  });
});

describe('canWrite', () => {
  it.each<[Permission | null, boolean]>([
    ['admin', true],
    ['maintain', true],
    ['write', true],
    ['triage', false],
    ['read', false],
    ['none', false],
    [null, false],
  ])('%s → %s', (p, want) => {
    expect(canWrite(p)).toBe(want);
  });
});

describe('isBot', () => {
  it('knows bots by account type or by the [bot] suffix', () => {
    expect(isBot('renovate[bot]', 'Bot')).toBe(true);
    expect(isBot('github-actions[bot]', undefined)).toBe(true);
    expect(isBot('some-app', 'Bot')).toBe(true);
  });

  it('people are not bots, even with "bot" in the name', () => {
    expect(isBot('robot-fan', 'User')).toBe(false);
    expect(isBot('botanist', undefined)).toBe(false);
    expect(isBot('octocat', 'Organization')).toBe(false);
  });
});
