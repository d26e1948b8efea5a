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
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CACHE_ECOSYSTEMS } from './toolchain-home-caches.js';
import { CREDENTIAL_ECOSYSTEMS } from './toolchain-home-credentials.js';
import { asRunner, type Ecosystem, runnerScratch, toolchainHomeTests, write } from './toolchain-home-suite.js';

const RUSTUP = '/root/.cargo/bin/rustup';
const TOOLCHAIN = 'stable-x86_64-unknown-linux-gnu';
const GO = '/usr/bin/go';
const PIP = '/usr/bin/pip';
const MVN = '/usr/bin/mvn';
const M2 = '/root/.m2/repository';
const JAVA_HOME = '/usr/lib/jvm/java-17-openjdk-amd64';

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
      ['.m2/settings.xml', 0o644, 'registry'],
      ['.m2/settings-security.xml', 0o644],
      ['.gradle/gradle.properties', 0o644, 'registry'],
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
      ['.npmrc', 0o644, 'registry'],
      ['.npm/owner-only-token', 0o600],
      ['.nvm/versions/node/v20.0.0/etc/npmrc', 0o644, 'registry'],
    ],
  },
];

// With the caches and tools of toolchain-home-caches.ts, in this one file: on the sudo path every case
// uses the suite's one runner user and its HOME, which each case snapshots whole, so no two may run at
// once (vitest runs a file's tests one after another, and files side by side).
toolchainHomeTests([...ECOSYSTEMS, ...CACHE_ECOSYSTEMS, ...CREDENTIAL_ECOSYSTEMS]);
