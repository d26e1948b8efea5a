import { describe, expect, it } from 'vitest';
import { deriveForkUrl } from '../../src/git/fork-url.js';
import { decidePush } from '../../src/github/permissions.js';
import { meta } from '../factories.js';

describe('deriveForkUrl', () => {
  it('swaps owner/name in https, ssh and file URLs', () => {
    expect(deriveForkUrl('https://github.com/octo-org/demo-repo', 'octo-org/demo-repo', 'stranger/demo-repo')).toBe(
      'https://github.com/stranger/demo-repo.git',
    );
    expect(deriveForkUrl('https://github.com/Octo-Org/demo-repo.git', 'octo-org/demo-repo', 'stranger/fork')).toBe(
      'https://github.com/stranger/fork.git',
    );
    expect(deriveForkUrl('git@github.com:octo-org/demo-repo.git', 'octo-org/demo-repo', 'stranger/demo-repo')).toBe(
      'git@github.com:stranger/demo-repo.git',
    );
    expect(deriveForkUrl('file:///tmp/x/octo-org/demo-repo.git', 'octo-org/demo-repo', 'stranger/demo-repo')).toBe(
      'file:///tmp/x/stranger/demo-repo.git',
    );
  });
  it('gives null when origin is not the base repository or the fork name is odd', () => {
    expect(deriveForkUrl('https://github.com/other/repo.git', 'octo-org/demo-repo', 'stranger/demo-repo')).toBeNull();
    expect(deriveForkUrl('https://github.com/octo-org/demo-repo.git', 'octo-org/demo-repo', '../../etc')).toBeNull();
    expect(
      deriveForkUrl('https://github.com/octo-org/demo-repo.git', 'octo-org/demo-repo', 'a/b --upload-pack=x'),
    ).toBeNull();
  });
});

describe('decidePush for fork PRs', () => {
  const fork = meta({ headRepoFullName: 'stranger/demo-repo' });
  const base = {
    mode: 'fix' as const,
    allowForkFixes: true,
    tokenPermission: 'write' as const,
    forkPushUrl: 'https://github.com/stranger/demo-repo.git',
  };
  it('is review-only without allow-fork-fixes', () => {
    expect(decidePush({ ...base, allowForkFixes: false, meta: fork }).canPush).toBe(false);
  });
  it('pushes with write on the fork, or with maintainer edits allowed and write on the base', () => {
    expect(decidePush({ ...base, meta: fork, headPermission: 'write' }).canPush).toBe(true);
    expect(decidePush({ ...base, meta: { ...fork, maintainerCanModify: true }, headPermission: 'none' }).canPush).toBe(
      true,
    );
    expect(decidePush({ ...base, meta: fork, headPermission: 'none' })).toEqual({
      canPush: false,
      reason: expect.stringContaining('allow edits by maintainers'),
    });
  });
  it('refuses when the fork URL cannot be derived', () => {
    expect(decidePush({ ...base, meta: fork, headPermission: 'write', forkPushUrl: null }).canPush).toBe(false);
  });
});
