// Real toolchains kept where hosted runners keep them, in the runner's HOME, used by `verify` the way a
// project's checks use them, with credentials planted beside them. On both privilege paths, for
// each ecosystem whose real tool is on this machine: the tool works in the call (it did not while
// each call got an empty HOME), a walk of HOME inside the call reads no planted credential, and
// nothing the call wrote reaches the runner's real HOME.
//
// What this test uses and changes outside the repository:
// - Rust: rustup as this machine's root has it (/root/.cargo/bin/rustup and the stable toolchain in
//   /root/.rustup, installed by the image; none is fetched). The toolchain's bin, lib, libexec and
//   etc are hard-linked into the runner's HOME (no copy of 600 MB) and removed after the test.
// - Go: Debian's `golang-go` (`apt-get install golang-go`); the module cache is filled from a
//   module proxy of files in the world's folder (GOPROXY=file://), then the call runs with
//   GOPROXY=off.
// - Python: Debian's python3 and pip (`/usr/bin/pip`); a package of the world's is installed with
//   `pip install --user` into the runner's HOME.
// - Maven: Debian's `maven` and OpenJDK 17, and the local repository this machine's root has
//   (/root/.m2/repository, filled by the image), hard-linked into the runner's HOME; the call runs
//   `mvn -o` (no network), finding ~/.m2 through Java's user.home.
// - Node: the npm on PATH fills `~/.npm` with `npm cache add` from a tarball of the world's; the
//   call runs `npm ci --offline`.
// On the runner-user path every file is created in the suite's runner user's HOME and removed after.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createWorld, type World } from '../harness.js';
import { PRIVILEGE_PATHS, runnerUser } from '../runner-user.js';
import { PLANTED_BUG_RULES } from '../scenarios.js';

interface Owner {
  uid: number;
  gid: number;
}

interface Ecosystem {
  name: string;
  available: () => boolean;
  /** Lays the toolchain out in the runner's HOME as its installer does; runs tools as the runner. */
  install: (home: string, owner: Owner, spy: string) => void;
  /** What the call runs (sh), writing the tool's output to $SPY/<name>.out. */
  verify: string;
  expected: string;
  /** PATH folders below HOME, first on PATH as the setup actions put them. */
  pathBelowHome: string[];
  env?: Record<string, string>;
  /** Credentials beside the toolchain: path below HOME, mode. */
  secrets: [string, number][];
}

const RUSTUP = '/root/.cargo/bin/rustup';
const TOOLCHAIN = 'stable-x86_64-unknown-linux-gnu';
const GO = '/usr/bin/go';
const PIP = '/usr/bin/pip';
const MVN = '/usr/bin/mvn';
const M2 = '/root/.m2/repository';
const JAVA_HOME = '/usr/lib/jvm/java-17-openjdk-amd64';

/** Runs `argv` as the runner (its HOME, its uid), as the setup steps before the action would. */
function asRunner(owner: Owner, home: string, argv: string[], cwd: string, env: Record<string, string> = {}): void {
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

function write(file: string, content: string, mode = 0o644): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
  writeFileSync(file, content, { mode });
  chmodSync(file, mode);
}

/** A folder for what the runner builds before the action: its own, readable by everyone. */
function runnerScratch(owner: Owner, spy: string, name: string): string {
  const dir = path.join(spy, name);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  execFileSync('chown', [`${owner.uid}:${owner.gid}`, dir]);
  return dir;
}

const ECOSYSTEMS: Ecosystem[] = [
  {
    name: 'rust',
    available: () => existsSync(RUSTUP) && existsSync(`/root/.rustup/toolchains/${TOOLCHAIN}/bin/rustc`),
    install(home) {
      // rustup's layout: the proxies in ~/.cargo/bin are the rustup binary under the tools' names;
      // the toolchain and the default choice live in ~/.rustup.
      mkdirSync(path.join(home, '.cargo/bin'), { recursive: true, mode: 0o755 });
      execFileSync('cp', [RUSTUP, path.join(home, '.cargo/bin/rustup')]);
      for (const tool of ['cargo', 'rustc']) execFileSync('ln', ['-s', 'rustup', path.join(home, '.cargo/bin', tool)]);
      const toolchain = path.join(home, '.rustup/toolchains', TOOLCHAIN);
      mkdirSync(toolchain, { recursive: true, mode: 0o755 });
      for (const part of ['bin', 'lib', 'libexec', 'etc']) {
        const from = `/root/.rustup/toolchains/${TOOLCHAIN}/${part}`;
        if (existsSync(from)) execFileSync('cp', ['-al', from, toolchain]);
      }
      write(path.join(home, '.rustup/settings.toml'), `version = "12"\ndefault_toolchain = "${TOOLCHAIN}"\n`);
      write(path.join(home, '.cargo/.package-cache'), '');
    },
    verify:
      'd=$(mktemp -d) && cd "$d" && cargo new -q --vcs none hello && cd hello && cargo run -q --offline > "$SPY/rust.out"',
    expected: 'Hello, world!',
    pathBelowHome: ['.cargo/bin'],
    secrets: [
      ['.cargo/credentials.toml', 0o644],
      ['.cargo/registry/owner-only-token', 0o600],
      ['.git-credentials', 0o600],
    ],
  },
  {
    name: 'go',
    available: () => existsSync(GO),
    install(home, owner, spy) {
      // A module proxy of files (the GOPROXY protocol: list, .info, .mod, .zip), read once to fill
      // the runner's module cache as a setup step with a cache restore would.
      const proxy = path.join(spy, 'goproxy', 'example.com', 'greet', '@v');
      mkdirSync(proxy, { recursive: true, mode: 0o755 });
      const mod = 'module example.com/greet\n\ngo 1.19\n';
      write(path.join(proxy, 'list'), 'v1.0.0\n');
      write(path.join(proxy, 'v1.0.0.info'), '{"Version":"v1.0.0","Time":"2024-01-01T00:00:00Z"}\n');
      write(path.join(proxy, 'v1.0.0.mod'), mod);
      const zip = [
        'import zipfile, sys',
        'z = zipfile.ZipFile(sys.argv[1], "w")',
        'z.writestr("example.com/greet@v1.0.0/go.mod", sys.argv[2])',
        'z.writestr("example.com/greet@v1.0.0/greet.go", "package greet\\n\\nfunc Hello() string { return \\"go-greet-ok\\" }\\n")',
        'z.close()',
      ].join('\n');
      execFileSync('/usr/bin/python3', ['-c', zip, path.join(proxy, 'v1.0.0.zip'), mod]);
      const app = runnerScratch(owner, spy, 'goapp');
      write(path.join(app, 'go.mod'), 'module example.com/app\n\ngo 1.19\n\nrequire example.com/greet v1.0.0\n');
      write(
        path.join(app, 'main.go'),
        'package main\n\nimport (\n\t"fmt"\n\t"example.com/greet"\n)\n\nfunc main() { fmt.Println(greet.Hello()) }\n',
      );
      execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, app]);
      asRunner(owner, home, [GO, 'mod', 'download', 'example.com/greet'], app, {
        GOPROXY: `file://${path.join(spy, 'goproxy')}`,
        GOSUMDB: 'off',
        GOFLAGS: '-mod=mod',
      });
      asRunner(owner, home, [GO, 'mod', 'tidy'], app, {
        GOPROXY: `file://${path.join(spy, 'goproxy')}`,
        GOSUMDB: 'off',
      });
    },
    verify: 'd=$(mktemp -d) && cp -r "$SPY/goapp/." "$d" && cd "$d" && go run . > "$SPY/go.out"',
    expected: 'go-greet-ok',
    pathBelowHome: [],
    env: { GOPROXY: 'off', GOFLAGS: '-mod=mod' },
    secrets: [
      ['.netrc', 0o644],
      ['go/pkg/owner-only-token', 0o600],
      ['.config/gh/hosts.yml', 0o644],
    ],
  },
  {
    name: 'python',
    available: () => existsSync(PIP) && spawnSync('/usr/bin/python3', ['-c', 'import setuptools']).status === 0,
    install(home, owner, spy) {
      const pkg = runnerScratch(owner, spy, 'pypkg');
      write(
        path.join(pkg, 'pyproject.toml'),
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n' +
          '[project]\nname = "greet"\nversion = "1.0"\n\n[project.scripts]\ngreet = "greet:main"\n',
      );
      write(path.join(pkg, 'greet.py'), 'def main():\n    print("python-greet-ok")\n');
      execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, pkg]);
      // Debian marks its Python externally managed (PEP 668); a hosted runner's setup-python does not.
      asRunner(
        owner,
        home,
        [PIP, 'install', '--user', '--break-system-packages', '--no-index', '--no-build-isolation', '-q', '.'],
        pkg,
      );
    },
    verify: 'greet > "$SPY/python.out"',
    expected: 'python-greet-ok',
    pathBelowHome: ['.local/bin'],
    secrets: [
      ['.pypirc', 0o644],
      ['.local/share/keyrings/login.keyring', 0o644],
      ['.local/owner-only-token', 0o600],
    ],
  },
  {
    name: 'maven',
    available: () =>
      existsSync(MVN) &&
      existsSync(JAVA_HOME) &&
      existsSync(`${M2}/org/apache/maven/plugins/maven-compiler-plugin/3.11.0`),
    install(home, _owner, spy) {
      mkdirSync(path.join(home, '.m2'), { mode: 0o755 });
      execFileSync('cp', ['-al', M2, path.join(home, '.m2/repository')]);
      // As Maven makes them for the runner (umask 022); this machine's copy is root's own (0750).
      execFileSync('find', [path.join(home, '.m2/repository'), '-type', 'd', '-exec', 'chmod', '755', '{}', '+']);
      const app = path.join(spy, 'mvnapp');
      const plugin = (id: string, version: string) =>
        `<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>${id}</artifactId><version>${version}</version></plugin>`;
      write(
        path.join(app, 'pom.xml'),
        '<project xmlns="http://maven.apache.org/POM/4.0.0">\n<modelVersion>4.0.0</modelVersion>\n' +
          '<groupId>demo</groupId><artifactId>demo</artifactId><version>1.0</version>\n' +
          '<properties><maven.compiler.release>17</maven.compiler.release>' +
          '<project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>\n' +
          // Versions this machine's repository holds with all their dependencies.
          `<build><plugins>${plugin('maven-resources-plugin', '3.3.1')}${plugin('maven-compiler-plugin', '3.11.0')}` +
          '</plugins></build>\n</project>\n',
      );
      write(
        path.join(app, 'src/main/java/demo/App.java'),
        'package demo;\npublic class App { public static void main(String[] a) { System.out.println("maven-ok"); } }\n',
      );
    },
    verify:
      'd=$(mktemp -d) && cp -r "$SPY/mvnapp/." "$d" && cd "$d" && mvn -o -q compile && ' +
      'java -cp target/classes demo.App > "$SPY/maven.out"',
    expected: 'maven-ok',
    pathBelowHome: [],
    env: { JAVA_HOME },
    secrets: [
      ['.m2/settings.xml', 0o644],
      ['.m2/settings-security.xml', 0o644],
      ['.gradle/gradle.properties', 0o644],
    ],
  },
  {
    name: 'node',
    available: () => spawnSync('npm', ['--version']).status === 0,
    install(home, owner, spy) {
      const lib = runnerScratch(owner, spy, 'greet-lib');
      write(path.join(lib, 'package.json'), '{"name":"greet-lib","version":"1.0.0","main":"index.js"}\n');
      write(path.join(lib, 'index.js'), "module.exports = () => 'node-greet-ok';\n");
      execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, lib]);
      asRunner(owner, home, ['npm', 'pack', '--silent'], lib);
      const tarball = path.join(lib, 'greet-lib-1.0.0.tgz');
      asRunner(owner, home, ['npm', 'cache', 'add', tarball], lib);
      const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
      const app = path.join(spy, 'nodeapp');
      write(path.join(app, 'package.json'), '{"name":"app","version":"1.0.0","dependencies":{"greet-lib":"1.0.0"}}\n');
      const lock = {
        name: 'app',
        version: '1.0.0',
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': { name: 'app', version: '1.0.0', dependencies: { 'greet-lib': '1.0.0' } },
          'node_modules/greet-lib': {
            version: '1.0.0',
            resolved: 'https://registry.npmjs.org/greet-lib/-/greet-lib-1.0.0.tgz',
            integrity,
          },
        },
      };
      write(path.join(app, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
    },
    verify:
      'd=$(mktemp -d) && cp "$SPY"/nodeapp/package*.json "$d" && cd "$d" && ' +
      'npm ci --offline --no-audit --no-fund >/dev/null && node -e "console.log(require(\'greet-lib\')())" > "$SPY/node.out"',
    expected: 'node-greet-ok',
    pathBelowHome: [],
    secrets: [
      ['.npmrc', 0o644],
      ['.npm/owner-only-token', 0o600],
      ['.nvm/versions/node/v20.0.0/etc/npmrc', 0o644],
    ],
  },
];

/** Credentials every runner's HOME may hold, whatever the ecosystem. */
const COMMON_SECRETS: [string, number][] = [
  ['.ssh/id_ed25519', 0o600],
  ['.docker/config.json', 0o644],
  ['.aws/credentials', 0o644],
  ['.env', 0o644],
  ['.cache/huggingface/token', 0o644],
];

const NEEDLE = 'PRL-NEEDLE';

/**
 * What a hostile call does inside: read every file of HOME it can reach (no bigger than 2 MB) and
 * keep what looks like a planted credential, and list every name.
 */
const WALK =
  'find "$HOME" -size -2M \\( -type f -o -type l \\) ! -name "*.jar" ! -name "*.rlib" 2>/dev/null | while IFS= read -r f; do cat "$f" 2>/dev/null; done ' +
  `| grep -ao '${NEEDLE}[A-Za-z0-9./_-]*' | sort -u > "$SPY/$ECO.hunt"; find "$HOME" > "$SPY/$ECO.names" 2>/dev/null; ` +
  `env | grep -ao '${NEEDLE}[A-Za-z0-9./_-]*' >> "$SPY/$ECO.hunt"`;

// A call's writes into the shared folders: a poisoned program beside the toolchain, a changed
// setting, a file in a cache. They must stay in the call.
const WRITES =
  'echo poisoned > "$HOME/.cache/poisoned-by-call" && echo cache-written > "$SPY/$ECO.wrote"; ' +
  '{ printf "#!/bin/sh\\necho poisoned\\n" > "$HOME/.cargo/bin/cargo"; } 2>/dev/null; ' +
  'mkdir -p "$HOME/go" "$HOME/.local" && echo x > "$HOME/go/planted" && echo x > "$HOME/.local/planted"';

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

/** Plants `rel` below HOME holding a needle that names it, owned by the runner. */
function plant(rel: string, mode: number): void {
  const file = path.join(home, rel);
  write(file, `token = "${NEEDLE}-${rel}"\n`, mode);
  // A folder of credentials is its owner's alone, as ssh and gpg make theirs.
  if (rel.startsWith('.ssh/')) chmodSync(path.dirname(file), 0o700);
}

const CASES = PRIVILEGE_PATHS.flatMap((p) => ECOSYSTEMS.map((e) => ({ ...p, eco: e.name })));

it.each(CASES)('$eco: the toolchain in the runner HOME works, no credential beside it is read, $how', async (c) => {
  const eco = ECOSYSTEMS.find((e) => e.name === c.eco)!;
  if (!eco.available()) {
    console.warn(`skipped: ${eco.name}'s tool is not on this machine (see the top of this file)`);
    return;
  }
  const runner = c.asRunnerUser ? runnerUser() : null;
  if (c.asRunnerUser && !runner) throw new Error('the suite made no runner user (it needs root)');
  home = runner ? runner.home : world.sandbox.env.HOME!;
  owner = runner ? { uid: runner.uid, gid: runner.gid } : { uid: 0, gid: 0 };
  const before = new Set(readdirSync(home));
  eco.install(home, owner, spy);
  for (const [rel, mode] of [...eco.secrets, ...COMMON_SECRETS]) plant(rel, mode);
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
  write(script, `${eco.verify}\n${WALK}\n${WRITES}\nexit 0\n`, 0o755);

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
      ...eco.env,
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
  for (const [rel] of [...eco.secrets, ...COMMON_SECRETS]) {
    expect(out(`${eco.name}.names`), rel).not.toContain(path.join(home, rel));
  }
  // Writing the shared folders worked in the call, and nothing of it reached the runner's HOME.
  expect(out(`${eco.name}.wrote`)).toContain('cache-written');
  expect(treeOf(home)).toEqual(snapshot);
  expect(r.stdout).toMatch(/toolchain variables withheld[^\n]*: PIP_INDEX_URL/);
  expect(r.outputs.status).toBe('converged');
});

/** Every path below `dir` with its size and mode: what a call's write would change. */
function treeOf(dir: string): string[] {
  const r = spawnSync('find', [dir, '-printf', '%p %s %m\\n'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return r.stdout.split('\n').filter(Boolean).sort();
}
