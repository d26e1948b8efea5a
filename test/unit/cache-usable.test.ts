// When the installed CLIs may come from the Actions cache: asked for, and only with the sandbox
// user, since a call running as the action's own user could read the cache token and plant an entry.
import { expect, it } from 'vitest';
import { cacheUsable } from '../../src/agents/for-run.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';

const sandbox = (user: string | null) => ({ user }) as unknown as Sandbox;

it('is used only when asked for and the calls run as the sandbox user', () => {
  const log: string[] = [];
  const push = (l: string) => log.push(l);
  expect(cacheUsable({ cacheClis: true, sandbox: sandbox('prl-1234567890'), log: push })).toBe(true);
  expect(cacheUsable({ cacheClis: false, sandbox: sandbox('prl-1234567890'), log: push })).toBe(false);
  expect(log).toEqual([]);
  expect(cacheUsable({ cacheClis: true, sandbox: sandbox(null), log: push })).toBe(false);
  expect(log).toEqual([
    expect.stringContaining("cache-clis: not used: agents and verify commands run as the action's"),
  ]);
});
