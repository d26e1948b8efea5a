// ensureCli: PATH first, then the tool cache, else a real `npm install` — here
// from a loopback npm registry serving a tiny stand-in package, so the test is
// offline and fast. The real pinned CLIs are installed by the global setup.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PACKAGES } from '../../src/agents/cli-versions.js';
import { ensureCli, installedBin } from '../../src/agents/install.js';
import { cachePrefix } from './cli-cache.js';
import { restoreEnv } from '../restore-env.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'prl-install-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function executable(file: string, body: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, body);
  chmodSync(file, 0o755);
  return file;
}

/** A package folder as npm leaves it: package.json plus files. */
function fakeInstall(prefix: string, pkg: string, version: string, files: Record<string, string>): void {
  const root = path.join(prefix, 'node_modules', pkg);
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: pkg, version }));
  for (const [rel, body] of Object.entries(files)) executable(path.join(prefix, 'node_modules', rel), body);
}

describe('ensureCli', () => {
  it('uses the CLI found on PATH and says so', async () => {
    const bin = executable(path.join(dir, 'bin', 'codex'), '#!/bin/sh\necho codex\n');
    const log: string[] = [];
    const found = await ensureCli('codex', {
      toolCacheDir: path.join(dir, 'cache'),
      searchPath: `/nonexistent:${path.dirname(bin)}`,
      log: (l) => log.push(l),
    });
    expect(found).toBe(bin);
    expect(log.join('\n')).toContain('from PATH');
  });

  it('reuses a finished install in the tool cache without running npm', async () => {
    const cache = path.join(dir, 'cache');
    mkdirSync(cache);
    const { version } = CLI_PACKAGES.codex;
    symlinkSync(cachePrefix('codex'), path.join(cache, `codex-${version}`)); // the suite's real install
    const log: string[] = [];
    const found = await ensureCli('codex', { toolCacheDir: cache, searchPath: '', log: (l) => log.push(l) });
    expect(execFileSync(found, ['--version'], { encoding: 'utf8' })).toContain(version);
    expect(log.join('\n')).toContain('from the tool cache');
  });

  describe('with npm and a loopback registry', () => {
    let registry: Server;
    let saved: NodeJS.ProcessEnv;
    beforeEach(() => {
      saved = { ...process.env };
    });
    afterEach(async () => {
      restoreEnv(saved);
      await new Promise((r) => registry?.close(r));
    });

    /** Starts the registry; `routes` gets its base URL (tarball links need it). npm is pointed at it. */
    async function serve(routes: (url: string) => Record<string, Buffer | object>): Promise<void> {
      let table: Record<string, Buffer | object> = {};
      registry = createServer((req, res) => {
        const body = table[decodeURIComponent(req.url ?? '/')];
        if (!body) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
        if (Buffer.isBuffer(body))
          return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
      await new Promise<void>((r) => registry.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
      table = routes(url);
      process.env.npm_config_registry = `${url}/`;
      process.env.npm_config_cache = path.join(dir, 'npm-cache');
    }

    /** A registry serving a stand-in Claude Code 9.9.9, tagged latest. */
    async function serveStandInClaude(): Promise<void> {
      const name = CLI_PACKAGES.claude.pkg;
      const src = path.join(dir, 'src');
      // Over 64 KiB, so it is not taken for a postinstall stub.
      executable(
        path.join(src, 'bin', 'claude.exe'),
        `#!/bin/sh\necho stand-in claude 9.9.9\n#${'x'.repeat(70_000)}\n`,
      );
      // Its postinstall leaves a mark where the test can see it: it must never run (see below).
      const scripts = {
        postinstall: `node -e "require('fs').writeFileSync('${path.join(dir, 'postinstall-ran')}', '')"`,
      };
      writeFileSync(
        path.join(src, 'package.json'),
        JSON.stringify({ name, version: '9.9.9', bin: { claude: 'bin/claude.exe' }, scripts }),
      );
      const tgzName = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], {
        cwd: src,
        encoding: 'utf8',
      })
        .trim()
        .split('\n')
        .at(-1)!;
      const tgz = readFileSync(path.join(dir, tgzName));
      await serve((url) => {
        const dist = {
          tarball: `${url}/claude.tgz`,
          shasum: createHash('sha1').update(tgz).digest('hex'),
          integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
        };
        const manifest = { name, version: '9.9.9', bin: { claude: 'bin/claude.exe' }, scripts, dist };
        return {
          [`/${name}`]: { name, 'dist-tags': { latest: '9.9.9' }, versions: { '9.9.9': manifest } },
          '/claude.tgz': tgz,
        };
      });
    }

    it('installs a dist-tag (agent-versions accepts `latest`) and takes whatever version it named', async () => {
      await serveStandInClaude();
      const cache = path.join(dir, 'cache');
      mkdirSync(cache);
      const bin = await ensureCli('claude', { version: 'latest', toolCacheDir: cache, searchPath: '' });
      expect(bin).toBe(path.join(cache, 'claude-latest', 'node_modules', '.bin', 'claude'));
      expect(execFileSync(bin, { encoding: 'utf8' })).toContain('stand-in claude 9.9.9');
    }, 120_000);

    it('installs the package at the asked version into <toolCacheDir>/<kind>-<version>', async () => {
      await serveStandInClaude();
      const cache = path.join(dir, 'cache');
      mkdirSync(cache);
      const log: string[] = [];
      const bin = await ensureCli('claude', {
        version: '9.9.9',
        toolCacheDir: cache,
        searchPath: '',
        log: (l) => log.push(l),
      });
      expect(bin).toBe(path.join(cache, 'claude-9.9.9', 'node_modules', '.bin', 'claude'));
      expect(execFileSync(bin, { encoding: 'utf8' })).toContain('stand-in claude 9.9.9');
      expect(log.join('\n')).toMatch(/not on PATH; installing @anthropic-ai\/claude-code@9\.9\.9/);
      expect(readdirSync(cache)).toEqual(['claude-9.9.9']); // no temp folder left behind
      // A package's install scripts would run as the action's user, which can read the token from the
      // action's process: they never run (the CLIs' native binaries are found without them).
      expect(existsSync(path.join(dir, 'postinstall-ran'))).toBe(false);
    }, 120_000);

    it("fails with the package, the version and npm's error, and leaves nothing behind", async () => {
      await serve(() => ({}));
      const cache = path.join(dir, 'cache');
      mkdirSync(cache);
      const err = await ensureCli('codex', { version: '0.0.1', toolCacheDir: cache, searchPath: '' }).catch(
        (e: unknown) => e,
      );
      expect(String(err)).toMatch(
        /installing @openai\/codex@0\.0\.1 with npm failed \(exit \d+\)[\s\S]*(404|E404|Not found)/i,
      );
      expect(readdirSync(cache)).toEqual([]);
    }, 120_000);
  });
});

describe('installedBin', () => {
  it('falls back to the native binary when npm skipped the postinstall (Claude Code)', async () => {
    const prefix = path.join(dir, 'claude');
    fakeInstall(prefix, '@anthropic-ai/claude-code', '2.1.197', {
      '@anthropic-ai/claude-code/bin/claude.exe': 'stub\n',
      [`@anthropic-ai/claude-code-${process.platform}-${process.arch}/claude`]: '#!/bin/sh\necho native\n',
    });
    mkdirSync(path.join(prefix, 'node_modules/.bin'));
    symlinkSync('../@anthropic-ai/claude-code/bin/claude.exe', path.join(prefix, 'node_modules/.bin/claude'));
    const bin = await installedBin('claude', prefix, '2.1.197');
    expect(bin).toBe(
      path.join(prefix, 'node_modules', '@anthropic-ai', `claude-code-${process.platform}-${process.arch}`, 'claude'),
    );
  });

  it('falls back to the baseline native binary when npm skipped the postinstall (OpenCode)', async () => {
    const prefix = path.join(dir, 'opencode');
    const os = process.platform === 'win32' ? 'windows' : process.platform;
    fakeInstall(prefix, 'opencode-ai', '1.18.33', {
      'opencode-ai/bin/opencode.exe': 'stub\n',
      [`opencode-${os}-${process.arch}/bin/opencode`]: '#!/bin/sh\n',
      [`opencode-${os}-${process.arch}-baseline/bin/opencode`]: '#!/bin/sh\n',
    });
    expect(await installedBin('opencode', prefix, '1.18.33')).toBe(
      path.join(prefix, 'node_modules', `opencode-${os}-${process.arch}-baseline`, 'bin', 'opencode'),
    );
  });

  it('does not take another version, or a missing install, for the asked one', async () => {
    const prefix = path.join(dir, 'gemini');
    fakeInstall(prefix, '@google/gemini-cli', '0.60.0', { '.bin/gemini': '#!/bin/sh\n' });
    expect(await installedBin('gemini', prefix, '0.61.0')).toBeNull();
    expect(await installedBin('gemini', path.join(dir, 'nothing'), '0.61.0')).toBeNull();
    expect(existsSync(prefix)).toBe(true);
  });
});
