// The test each ecosystem of the runner's HOME goes through (toolchain-home*.test.ts): the toolchain
// laid out in the runner's HOME as its installer does, credentials planted beside it, then a run of
// the bundle whose `verify` uses the toolchain the way a project's checks do, walks HOME for the
// credentials the way a hostile command would, and writes into the shared folders. On both
// privilege paths: the tool works in the call, the walk reads no credential, and nothing the call
// wrote reaches the runner's real HOME.
//
// What it changes outside the repository: on the runner-user path, what each ecosystem lays out
// in the suite's runner user's HOME, removed after the test.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWorld, type World } from '../harness.js';
import { PRIVILEGE_PATHS, runnerUser } from '../runner-user.js';
import { PLANTED_BUG_RULES } from '../scenarios.js';

export interface Owner {
  uid: number;
  gid: number;
}

export interface Ecosystem {
  name: string;
  available: () => boolean;
  /** Lays the toolchain out in the runner's HOME as its installer does; runs tools as the runner. */
  install: (home: string, owner: Owner, spy: string, runnerTemp: string) => void;
  /** What the call runs (sh), writing the tool's output to $SPY/<name>.out. */
  verify: string;
  expected: string;
  /** PATH folders below HOME, first on PATH as the setup actions put them. */
  pathBelowHome: string[];
  /** The step's environment (a toolchain variable naming a folder in the runner's HOME, say). */
  env?: Record<string, string> | ((home: string, runnerTemp: string) => Record<string, string>);
  /** Credentials beside the toolchain (path below HOME, mode), planted as `plant` says. */
  secrets: Secret[];
  /** Credentials outside HOME (below RUNNER_TEMP, relative to it): path, mode. */
  elsewhere?: Secret[];
}

/**
 * A planted credential: its path, its mode, and what it holds (`{{NEEDLE}}` stands for a needle
 * that names it; default: a line `token = "<needle>"`). A `registry` file may be listed in the
 * call (the view shows its copy stripped of credentials); its needle never.
 */
export type Secret = [rel: string, mode: number, kind?: 'registry', content?: string];

/** Runs `argv` as the runner (its HOME, its uid), as the setup steps before the action would. */
export function asRunner(
  owner: Owner,
  home: string,
  argv: string[],
  cwd: string,
  env: Record<string, string> = {},
): void {
  const r = spawnSync(
    '/usr/bin/setpriv',
    ['--reuid', String(owner.uid), '--regid', String(owner.gid), '--clear-groups', '--', ...argv],
    {
      cwd,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home, ...env },
    },
  );
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed: ${r.stdout}\n${r.stderr}`);
}

export function write(file: string, content: string, mode = 0o644): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
  writeFileSync(file, content, { mode });
  chmodSync(file, mode);
}

/** A folder for what the runner builds before the action: its own, readable by everyone. */
export function runnerScratch(owner: Owner, spy: string, name: string): string {
  const dir = path.join(spy, name);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  execFileSync('chown', [`${owner.uid}:${owner.gid}`, dir]);
  return dir;
}

/** Credentials every runner's HOME may hold, whatever the ecosystem. */
const COMMON_SECRETS: Secret[] = [
  ['.ssh/id_ed25519', 0o600],
  ['.docker/config.json', 0o644],
  ['.aws/credentials', 0o644],
  ['.env', 0o644],
  ['.cache/huggingface/token', 0o644],
];

const NEEDLE = 'PRL-NEEDLE';

/**
 * What a hostile call does inside: read every file of HOME (and of `roots` besides) it can reach
 * (no bigger than 2 MB) and keep what looks like a planted credential, and list every name.
 */
function walk(roots: string[]): string {
  const where = roots.map((r) => `"${r}"`).join(' ');
  return (
    `find ${where} -size -2M \\( -type f -o -type l \\) ! -name "*.jar" ! -name "*.rlib" 2>/dev/null | ` +
    'while IFS= read -r f; do cat "$f" 2>/dev/null; done ' +
    `| grep -ao '${NEEDLE}[A-Za-z0-9./_-]*' | sort -u > "$SPY/$ECO.hunt"; ` +
    `find ${where} > "$SPY/$ECO.names" 2>/dev/null; ` +
    `env | grep -ao '${NEEDLE}[A-Za-z0-9./_-]*' >> "$SPY/$ECO.hunt"`
  );
}

// A call's writes into the shared folders: a poisoned program beside the toolchain, a changed
// setting, a file in a cache. They must stay in the call.
const WRITES =
  'echo poisoned > "$HOME/.cache/poisoned-by-call" && echo cache-written > "$SPY/$ECO.wrote"; ' +
  '{ printf "#!/bin/sh\\necho poisoned\\n" > "$HOME/.cargo/bin/cargo"; } 2>/dev/null; ' +
  'mkdir -p "$HOME/go" "$HOME/.local" && echo x > "$HOME/go/planted" && echo x > "$HOME/.local/planted"';

/** Registers the test of each ecosystem, on both privilege paths. */
export function toolchainHomeTests(ecosystems: readonly Ecosystem[]): void {
  let world: World;
  let home: string;
  let owner: Owner;
  let spy: string;
  let made: string[];

  beforeEach(async () => {
    world = await createWorld();
    spy = path.join(world.dir, 'agent-io', 'toolchain-spy');
    mkdirSync(spy);
    chmodSync(spy, 0o777);
    made = [];
  });
  afterEach(async () => {
    // The runner user's HOME outlives the test: what the test put there goes.
    for (const entry of made) rmSync(path.join(home, entry), { recursive: true, force: true });
    await world.close();
  });

  /** Plants `rel` below `root` holding a needle that names it, owned by the runner. */
  function plant(root: string, [rel, mode, , content]: Secret): void {
    const file = path.join(root, rel);
    const needle = `${NEEDLE}-${rel.replace(/[^A-Za-z0-9./_-]/g, '_')}`;
    write(file, content ? content.replaceAll('{{NEEDLE}}', needle) : `token = "${needle}"\n`, mode);
    // A folder of credentials is its owner's alone, as ssh and gpg make theirs.
    if (rel.startsWith('.ssh/')) chmodSync(path.dirname(file), 0o700);
  }

  const cases = PRIVILEGE_PATHS.flatMap((p) => ecosystems.map((e) => ({ ...p, eco: e.name })));
  it.each(cases)('$eco: the toolchain in the runner HOME works, no credential beside it is read, $how', async (c) => {
    const eco = ecosystems.find((e) => e.name === c.eco)!;
    if (!eco.available()) {
      console.warn(`skipped: ${eco.name}'s tool is not on this machine (see the top of its test file)`);
      return;
    }
    const runner = c.asRunnerUser ? runnerUser() : null;
    if (c.asRunnerUser && !runner) throw new Error('the suite made no runner user (it needs root)');
    home = runner ? runner.home : world.sandbox.env.HOME!;
    owner = runner ? { uid: runner.uid, gid: runner.gid } : { uid: 0, gid: 0 };
    const before = new Set(readdirSync(home));
    // The first run's RUNNER_TEMP (harness.ts), which the run hands over to the runner user.
    const runnerTemp = path.join(world.dir, 'run-1');
    eco.install(home, owner, spy, runnerTemp);
    for (const secret of [...eco.secrets, ...COMMON_SECRETS]) plant(home, secret);
    for (const secret of eco.elsewhere ?? []) plant(runnerTemp, secret);
    made = readdirSync(home).filter((e) => !before.has(e));
    // The runner's files are the runner's (the hard-linked toolchain stays root's: chown would change
    // the originals).
    if (runner) {
      for (const entry of made) {
        spawnSync('find', [
          path.join(home, entry),
          '-links',
          '1',
          '-exec',
          'chown',
          '-h',
          `${owner.uid}:${owner.gid}`,
          '{}',
          '+',
        ]);
        spawnSync('find', [
          path.join(home, entry),
          '-type',
          'd',
          '-exec',
          'chown',
          `${owner.uid}:${owner.gid}`,
          '{}',
          '+',
        ]);
      }
    }
    const snapshot = treeOf(home);
    const script = path.join(spy, `${eco.name}.sh`);
    // Each folder outside HOME itself: the folders between are made enter-only in a call (mount-view.ts).
    const elsewhere = [...new Set((eco.elsewhere ?? []).map(([rel]) => path.join(runnerTemp, rel.split('/')[0]!)))];
    const roots = [home, ...elsewhere];
    write(script, `${eco.verify}\n${walk(roots)}\n${WRITES}\nexit 0\n`, 0o755);

    const r = await world.run({
      asRunnerUser: c.asRunnerUser,
      rules: PLANTED_BUG_RULES,
      inputs: { 'verify-env': 'SPY,ECO', verify: `sh ${script}\nnpm test` },
      extraEnv: {
        SPY: spy,
        ECO: eco.name,
        PATH: [...eco.pathBelowHome.map((p) => path.join(home, p)), process.env.PATH].join(':'),
        // A toolchain variable with a password in it, as a private index's URL often has: withheld.
        PIP_INDEX_URL: `https://ci:${NEEDLE}-pip-index@pypi.internal.example/simple`,
        ...(typeof eco.env === 'function' ? eco.env(home, runnerTemp) : eco.env),
      },
      killAfterMs: 240_000,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = (name: string) => (existsSync(path.join(spy, name)) ? readFileSync(path.join(spy, name), 'utf8') : '');
    // The tool found its toolchain where the runner keeps it.
    expect(out(`${eco.name}.out`), r.stdout.split('\n').slice(-40).join('\n')).toContain(eco.expected);
    // The walk ran, and read no credential, nor found one by name.
    expect(out(`${eco.name}.names`)).toContain(home);
    expect(out(`${eco.name}.hunt`)).toBe('');
    for (const [rel, , kind] of [...eco.secrets, ...COMMON_SECRETS]) {
      if (kind !== 'registry') expect(out(`${eco.name}.names`), rel).not.toContain(path.join(home, rel));
    }
    for (const [rel, , kind] of eco.elsewhere ?? []) {
      if (kind !== 'registry') expect(out(`${eco.name}.names`), rel).not.toContain(path.join(runnerTemp, rel));
    }
    // Writing the shared folders worked in the call, and nothing of it reached the runner's HOME.
    expect(out(`${eco.name}.wrote`)).toContain('cache-written');
    expect(treeOf(home)).toEqual(snapshot);
    expect(r.stdout).toMatch(/toolchain variables withheld[^\n]*: PIP_INDEX_URL/);
    expect(r.outputs.status).toBe('converged');
  });
}

/** Every path below `dir` with its size and mode: what a call's write would change. */
function treeOf(dir: string): string[] {
  const r = spawnSync('find', [dir, '-printf', '%p %s %m\\n'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return r.stdout.split('\n').filter(Boolean).sort();
}
