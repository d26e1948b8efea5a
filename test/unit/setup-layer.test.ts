// How what setup wrote in HOME is sorted before later calls see it (src/sandbox/setup-layer.ts): by
// the view's rules, as the runner's HOME is (credentials dropped, registry configuration stripped),
// git's configuration dropped, and the caches a call holding a model key may see set apart. The
// layers themselves, on both privilege paths, are test/sandbox/setup-home.test.ts.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { verdictOf, type HomeViewPlan } from '../../src/sandbox/home-view.js';
import { SETUP_CACHES, SetupHome, sortSetupEntries, type LayerEntry } from '../../src/sandbox/setup-layer.js';
import { REGISTRY_FILES, TOOL_FOLDERS } from '../../src/sandbox/tool-rules.js';

const plan = (extra: Partial<HomeViewPlan> = {}): HomeViewPlan => ({
  home: '/home/runner',
  shared: [...TOOL_FOLDERS, '.local/bin'],
  files: [...REGISTRY_FILES],
  moved: [],
  open: ['.local/bin'],
  denied: [],
  ...extra,
});

/** `d path` a folder, `f path` a file, `c path` a whiteout, `s path` a socket, `l path` a link; parents first. */
const layer = (...lines: string[]): LayerEntry[] =>
  lines.map((line) => ({ type: line[0]!, size: 10, rel: line.slice(2) }));

const SETUP_WROTE = layer(
  'd .npm',
  'd .npm/_cacache',
  'f .npm/_cacache/x',
  'f .npm/.npmrc',
  'f .npmrc',
  'f .bashrc',
  'f .netrc',
  'f .gitconfig',
  'd .config',
  'd .config/git',
  'f .config/git/credentials',
  'd .config/claude',
  'f .config/claude/settings.json',
  'd .ssh',
  'f .ssh/id_ed25519',
  'd .cache',
  'd .cache/pip',
  'd .cache/pip/wheels',
  'f .cache/pip/wheels/.env',
  'd go',
  'd go/pkg',
  'd go/pkg/mod',
  'd .cargo',
  'f .cargo/credentials.toml',
  'd .cargo/registry',
  'd .local',
  'd .local/bin',
  'f .local/bin/tool',
  's .local/agent.sock',
  'l .local/link',
  'c .profile',
);

it('drops credentials and git configuration, strips registry files, keeps the rest, sets the caches apart', () => {
  const s = sortSetupEntries(plan(), SETUP_WROTE);
  expect(s.drop).toEqual([
    '.netrc',
    '.gitconfig',
    '.config/git',
    '.ssh',
    '.cache/pip/wheels/.env',
    '.cargo/credentials.toml',
    '.local/agent.sock',
  ]);
  expect(s.strip).toEqual([
    { rel: '.npm/.npmrc', format: 'npmrc' },
    { rel: '.npmrc', format: 'npmrc' },
  ]);
  expect(s.caches).toEqual(['.npm', '.cache/pip', 'go/pkg/mod', '.cargo/registry']);
});

it('a cache folder below a dropped or linked folder is never set apart', () => {
  // `.m2` made a link by setup: nothing below it is listed; a cache below a credential's folder goes with it.
  const s = sortSetupEntries(plan(), layer('l .m2', 'd .ssh', 'd .ssh/.npm', 'd .cache', 'f .cache/pip'));
  expect(s.caches).toEqual([]);
  expect(s.drop).toEqual(['.ssh']);
});

it("a registry file too large, or not a file, is dropped rather than stripped; the workflow's denials hold", () => {
  const entries = [
    ...layer('l .npmrc', 'd .config', 'd .config/pip'),
    { type: 'f', size: 1024 * 1024, rel: '.config/pip/pip.conf' },
  ];
  expect(sortSetupEntries(plan(), entries)).toEqual({
    drop: ['.npmrc', '.config/pip/pip.conf'],
    strip: [],
    caches: [],
  });
  const denied = sortSetupEntries(plan({ denied: ['.npm'] }), layer('d .npm', 'f .npm/x', 'f .bashrc'));
  expect(denied).toEqual({ drop: ['.npm'], strip: [], caches: [] });
});

it('sets apart only what the view itself calls a cache', () => {
  // Each is a cache by the view's own rules (tool-rules.ts): no toolchain, settings or PATH folder.
  expect(SETUP_CACHES.map((c) => verdictOf(plan(), c).class)).toEqual(SETUP_CACHES.map(() => 'cache'));
  expect(verdictOf(plan(), '.local/bin').class).not.toBe('cache');
});

it("refuses a layer whose paths would not fit in a call's overlay options, before touching anything", async () => {
  // The kernel takes one page for an overlay's options: a layer past it would make every later call's mount fail.
  const top = mkdtempSync(path.join(tmpdir(), 'setup-layer-'));
  const base = path.join(top, ...Array.from({ length: 12 }, (_, i) => `${i}`.padEnd(200, 'x')));
  mkdirSync(base, { recursive: true });
  try {
    const setup = new SetupHome('root', { uid: 1, gid: 1 }, plan(), base);
    await expect(setup.record(path.join(top, 'no-such-upper'))).rejects.toThrow(
      /would not fit in an overlay's options/,
    );
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
});
