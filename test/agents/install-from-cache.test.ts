// ensureCli with the Actions cache: the real client (@actions/cache) against a stand-in of the
// cache service on 127.0.0.1 (test/fakes/actions-cache.ts), and a real `npm install` from a
// loopback registry serving a stand-in CLI. A "run" is one ensureCli on an empty tool cache, as
// on a fresh hosted runner; the cache service keeps its entries between runs.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureCli } from '../../src/agents/install.js';
import { actionsInstallCache, foreignEntry, installCacheKey } from '../../src/agents/install-cache.js';
import { startFakeActionsCache, type FakeActionsCache } from '../fakes/actions-cache.js';
import { startFakeNpmRegistry, type FakeNpmRegistry } from '../fakes/npm-registry.js';
import { restoreEnv } from '../restore-env.js';

const VERSION = '9.9.9';
const KEY = installCacheKey('codex', VERSION)!;

let dir: string;
let toolCache: string;
let service: FakeActionsCache;
let registry: FakeNpmRegistry;
let saved: NodeJS.ProcessEnv;
let log: string[];

beforeEach(async () => {
  saved = { ...process.env };
  dir = mkdtempSync(path.join(tmpdir(), 'prl-install-cache-'));
  toolCache = path.join(dir, 'tool-cache', 'pr-review-loop-clis');
  service = await startFakeActionsCache();
  registry = await startFakeNpmRegistry('@openai/codex', VERSION, 'codex');
  mkdirSync(path.join(dir, 'workspace'));
  mkdirSync(path.join(dir, 'runner-temp'));
  // What the runner gives the action's process; the cache client reads it from there.
  Object.assign(process.env, service.env, {
    GITHUB_WORKSPACE: path.join(dir, 'workspace'),
    RUNNER_TEMP: path.join(dir, 'runner-temp'),
    npm_config_registry: registry.url,
    npm_config_cache: path.join(dir, 'npm-cache'),
  });
  delete process.env.GITHUB_SERVER_URL;
  delete process.env.ACTIONS_CACHE_URL;
  delete process.env.ACTIONS_CACHE_MODE;
  log = [];
});

afterEach(async () => {
  restoreEnv(saved);
  await Promise.all([service.close(), registry.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** One run of a fresh runner: an empty tool cache, the CLI not on PATH. */
async function run(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  rmSync(toolCache, { recursive: true, force: true });
  mkdirSync(toolCache, { recursive: true });
  const cache = actionsInstallCache(env, (l) => log.push(l));
  return ensureCli('codex', {
    version: VERSION,
    toolCacheDir: toolCache,
    searchPath: '',
    cache,
    log: (l) => log.push(l),
  });
}

/** Later runs can reach neither npm nor the registry: an `npm` that fails comes first on PATH. */
function withoutNpm(): void {
  const shims = path.join(dir, 'shims');
  mkdirSync(shims, { recursive: true });
  writeFileSync(path.join(shims, 'npm'), '#!/bin/sh\necho "npm must not run" >&2\nexit 97\n');
  chmodSync(path.join(shims, 'npm'), 0o755);
  process.env.PATH = `${shims}${path.delimiter}${process.env.PATH ?? ''}`;
  process.env.npm_config_registry = 'http://127.0.0.1:9/';
}

const output = (bin: string) => execFileSync(bin, { encoding: 'utf8' });

describe('ensureCli with the Actions cache', () => {
  it('installs on a miss and saves the install; the next run restores it and never runs npm', async () => {
    const first = await run();
    expect(output(first)).toContain(`stand-in codex ${VERSION}`);
    expect(registry.requests.length).toBeGreaterThan(0);
    expect(service.keys()).toEqual([KEY]);
    expect(service.calls).toEqual([
      'GetCacheEntryDownloadURL',
      'CreateCacheEntry',
      'PUT blob',
      'FinalizeCacheEntryUpload',
    ]);
    expect(readdirSync(toolCache).sort()).toEqual([`codex-${VERSION}`, 'transfer']);
    expect(readdirSync(path.join(toolCache, 'transfer'))).toEqual([]);

    withoutNpm();
    const asked = registry.requests.length;
    const second = await run();
    expect(second).toBe(first);
    expect(output(second)).toContain(`stand-in codex ${VERSION}`);
    expect(registry.requests.length).toBe(asked);
    expect(log.join('\n')).toContain(`codex: using @openai/codex@${VERSION} restored from the cache`);
    expect(service.calls.slice(4)).toEqual(['GetCacheEntryDownloadURL', 'GET blob']);
  }, 120_000);

  it('does not trust an incomplete entry: it installs with npm, and the entry stays as it was', async () => {
    // An entry under the key holding only package.json, saved from the path the action saves from.
    const transfer = path.join(toolCache, 'transfer', `codex-${VERSION}`);
    const pkg = path.join(transfer, 'node_modules', '@openai', 'codex');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: '@openai/codex', version: VERSION }));
    await actionsInstallCache(process.env, (l) => log.push(l)).save(KEY, transfer);
    expect(service.keys()).toEqual([KEY]);

    const bin = await run();
    expect(output(bin)).toContain(`stand-in codex ${VERSION}`);
    expect(log.join('\n')).toMatch(/the cache entry \S+ is not used \(no runnable @openai\/codex@9\.9\.9 in it\)/);
    expect(registry.requests.length).toBeGreaterThan(0);
    // Entries are immutable: the service refused to replace it, and the run went on.
    expect(service.calls.filter((c) => c === 'CreateCacheEntry')).toHaveLength(2);
    expect(log.join('\n')).toContain(`cache: ${KEY} was not saved`);
  }, 120_000);

  it('installs with npm when the restored archive is damaged', async () => {
    await run();
    service.corrupt(KEY, Buffer.from('not an archive'));
    const before = registry.requests.length;
    const bin = await run();
    expect(output(bin)).toContain(`stand-in codex ${VERSION}`);
    expect(registry.requests.length).toBeGreaterThan(before);
    expect(log.join('\n')).toContain(`cache: nothing restored for ${KEY}`);
    expect(existsSync(path.join(toolCache, 'transfer', `codex-${VERSION}`))).toBe(false);
  }, 120_000);

  it('installs as without a cache when the service refuses connections', async () => {
    const closed = service.url;
    await service.close();
    const env = { ...process.env, ACTIONS_RESULTS_URL: `${closed}/` };
    process.env.ACTIONS_RESULTS_URL = env.ACTIONS_RESULTS_URL;
    const bin = await run(env);
    expect(output(bin)).toContain(`stand-in codex ${VERSION}`);
    expect(log.join('\n')).toContain(`cache: nothing restored for ${KEY}`);
    expect(log.join('\n')).toContain(`cache: ${KEY} was not saved`);
  }, 120_000);

  it('installs as without a cache when the service rate-limits, and tries no second save', async () => {
    service.rateLimit(true);
    const cache = actionsInstallCache(process.env, (l) => log.push(l));
    mkdirSync(toolCache, { recursive: true });
    const bin = await ensureCli('codex', { version: VERSION, toolCacheDir: toolCache, searchPath: '', cache });
    expect(output(bin)).toContain(`stand-in codex ${VERSION}`);
    await cache.save(KEY, bin); // refused once: not asked again this run
    expect(service.calls).toEqual(['GetCacheEntryDownloadURL', 'CreateCacheEntry']);
    expect(service.keys()).toEqual([]);
  }, 120_000);

  it('says once that there is no cache service, and installs', async () => {
    const env = { ...process.env };
    delete env.ACTIONS_RUNTIME_TOKEN;
    const bin = await run(env);
    expect(output(bin)).toContain(`stand-in codex ${VERSION}`);
    expect(log.filter((l) => l.startsWith('cache:'))).toEqual([
      'cache: the CLIs are installed with npm: the Actions cache service is not available (ACTIONS_RUNTIME_TOKEN is not set)',
    ]);
    expect(service.calls).toEqual([]);
  }, 120_000);

  it('keeps exact versions only: a dist-tag is installed from npm and not saved', async () => {
    mkdirSync(toolCache, { recursive: true });
    const cache = actionsInstallCache(process.env, (l) => log.push(l));
    // installedBin then looks for version "latest", which no install has: npm's install runs, and fails the check.
    await ensureCli('codex', {
      version: 'latest',
      toolCacheDir: toolCache,
      searchPath: '',
      cache,
      log: (l) => log.push(l),
    }).catch(() => undefined);
    expect(log.join('\n')).toContain('latest is not an exact version');
    expect(service.calls).toEqual([]);
  }, 120_000);
});

describe('installCacheKey', () => {
  it('names the key format, the CLI, its exact version, the OS and the CPU', () => {
    expect(installCacheKey('claude', '2.1.197', 'linux', 'x64')).toBe('pr-review-loop-cli-v1-claude-2.1.197-linux-x64');
    expect(installCacheKey('gemini', '0.61.0-nightly.1', 'darwin', 'arm64')).toBe(
      'pr-review-loop-cli-v1-gemini-0.61.0-nightly.1-darwin-arm64',
    );
    expect(installCacheKey('codex', 'latest')).toBeNull();
  });
});

describe('foreignEntry', () => {
  it('finds an entry others may write, or one another user owns', async () => {
    const root = path.join(dir, 'tree');
    mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    writeFileSync(path.join(root, 'a', 'b', 'f'), 'x', { mode: 0o644 });
    chmodSync(path.join(root, 'a', 'b', 'f'), 0o644);
    expect(await foreignEntry(root)).toBeNull();
    chmodSync(path.join(root, 'a', 'b', 'f'), 0o664);
    expect(await foreignEntry(root)).toMatch(/a\/b\/f is writable by others \(mode 664\)/);
    chmodSync(path.join(root, 'a', 'b', 'f'), 0o644);
    const uid = process.getuid!();
    expect(await foreignEntry(root, uid + 1)).toMatch(/is owned by uid/);
  });
});
