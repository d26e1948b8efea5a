// ensureCli when the cache service is down and answers 500 to everything: the cache client
// retries each call with back-off (about half a minute for the restore and again for the save),
// then the CLI is installed with npm as without a cache. A file of its own, so that its minute
// of waiting runs beside the other tests rather than after them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureCli } from '../../src/agents/install.js';
import { actionsInstallCache, installCacheKey } from '../../src/agents/install-cache.js';
import { startFakeActionsCache, type FakeActionsCache } from '../fakes/actions-cache.js';
import { startFakeNpmRegistry, type FakeNpmRegistry } from '../fakes/npm-registry.js';
import { restoreEnv } from '../restore-env.js';

let dir: string;
let service: FakeActionsCache;
let registry: FakeNpmRegistry;
let saved: NodeJS.ProcessEnv;

beforeAll(async () => {
  saved = { ...process.env };
  dir = mkdtempSync(path.join(tmpdir(), 'prl-cache-outage-'));
  service = await startFakeActionsCache();
  registry = await startFakeNpmRegistry('@openai/codex', '9.9.9', 'codex');
  mkdirSync(path.join(dir, 'workspace'));
  mkdirSync(path.join(dir, 'runner-temp'));
  Object.assign(process.env, service.env, {
    GITHUB_WORKSPACE: path.join(dir, 'workspace'),
    RUNNER_TEMP: path.join(dir, 'runner-temp'),
    npm_config_registry: registry.url,
    npm_config_cache: path.join(dir, 'npm-cache'),
  });
  delete process.env.GITHUB_SERVER_URL;
  delete process.env.ACTIONS_CACHE_MODE;
});

afterAll(async () => {
  restoreEnv(saved);
  await Promise.all([service.close(), registry.close()]);
  rmSync(dir, { recursive: true, force: true });
});

it('installs as without a cache when the service answers 500, and says so', async () => {
  service.failWith(500);
  const toolCache = path.join(dir, 'tool-cache');
  mkdirSync(toolCache);
  const log: string[] = [];
  const cache = actionsInstallCache(process.env, (l) => log.push(l));
  const bin = await ensureCli('codex', { version: '9.9.9', toolCacheDir: toolCache, searchPath: '', cache });
  expect(execFileSync(bin, { encoding: 'utf8' })).toContain('stand-in codex 9.9.9');
  expect(registry.requests.length).toBeGreaterThan(0);
  const key = installCacheKey('codex', '9.9.9');
  expect(log).toEqual([
    `cache: nothing restored for ${key}`,
    `cache: ${key} was not saved (the cache client's line above says why)`,
  ]);
  expect(service.calls.filter((c) => c === 'GetCacheEntryDownloadURL')).toHaveLength(5); // the client's retries
  expect(service.keys()).toEqual([]);
}, 150_000);
