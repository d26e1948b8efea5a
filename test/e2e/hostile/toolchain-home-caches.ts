// Caches and tools a project's checks find in the runner's HOME, run by toolchain-home.test.ts beside
// its compilers (in one file, so that no two cases share the runner user's HOME at once): Gradle's dependency cache, Playwright's browsers, tools installed with pipx, and Poetry
// with the virtualenv an earlier step made. Each case lays them out as their installers do, plants
// credentials beside them, and runs `verify` through the bundle on both privilege paths (see
// toolchain-home-suite.ts): the tool works in the call, a walk of HOME reads no credential, and the
// runner's HOME is unchanged after.
//
// What this test uses and changes outside the repository:
// - Gradle: Debian packages Gradle 4.4, which runs on no JDK this machine has, and no distribution
//   can be downloaded here: test/fixtures/stand-ins/Gradle.java stands in for it (it finds the user
//   home and resolves offline as Gradle does; see its header), run by Debian's OpenJDK 17. The
//   cache holds commons-lang3 from this machine's root's /root/.m2 (filled by the image), copied.
// - Playwright: no browser can be downloaded here: test/fixtures/stand-ins/playwright.mjs stands
//   in for the launch (it finds the browsers folder as playwright-core's registry does); the
//   "browser" is a shell script at Chromium's path.
// - pipx: Debian's `pipx` (`apt-get install pipx`, 1.1.0, which keeps its venvs in ~/.local/pipx)
//   installs a wheel built here with Debian's pip and setuptools, with no index.
// - Poetry: Debian's `python3-poetry` (`apt-get install python3-poetry`, 1.3.2), laid out the way
//   Poetry's installer lays it out: a venv in ~/.local/share/pypoetry/venv (seeing Debian's
//   poetry package) and ~/.local/bin/poetry linking to its script; `poetry install` as the runner
//   makes the project's virtualenv in ~/.cache/pypoetry/virtualenvs.
// On the runner-user path every file is created in the suite's runner user's HOME and removed after.
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { asRunner, type Ecosystem, runnerScratch, write } from './toolchain-home-suite.js';

const JAVA_HOME = '/usr/lib/jvm/java-17-openjdk-amd64';
const STAND_INS = path.resolve(import.meta.dirname, '../../fixtures/stand-ins');
const LANG3 = '/root/.m2/repository/org/apache/commons/commons-lang3/3.12.0/commons-lang3-3.12.0.jar';
const PYTHON = '/usr/bin/python3';
const PIP = '/usr/bin/pip';
const PIPX = '/usr/bin/pipx';
const POETRY_MODULE = '/usr/lib/python3/dist-packages/poetry/console/application.py';

/**
 * Gradle, its user home `userHome` (below HOME): the dependency cache filled as a restored
 * `~/.gradle/caches` holds it, and the runner image's Gradle (outside HOME) on the call's PATH.
 */
function gradle(name: string, userHome: string, env: (home: string) => Record<string, string>): Ecosystem {
  return {
    name,
    available: () => existsSync(`${JAVA_HOME}/bin/javac`) && existsSync(LANG3),
    install(home, _owner, spy) {
      const jar = readFileSync(LANG3);
      const sha1 = createHash('sha1').update(jar).digest('hex');
      const cached = path.join(home, userHome, 'caches/modules-2/files-2.1/org.apache.commons/commons-lang3/3.12.0');
      mkdirSync(path.join(cached, sha1), { recursive: true, mode: 0o755 });
      copyFileSync(LANG3, path.join(cached, sha1, 'commons-lang3-3.12.0.jar'));
      write(path.join(home, userHome, 'caches/modules-2/modules-2.lock'), '\0');
      // Gradle's start script: JAVA_HOME's java, else the one on PATH.
      const dist = path.join(spy, 'gradle-8.5');
      copyFileSync(path.join(STAND_INS, 'Gradle.java'), path.join(mkdirs(dist, 'lib'), 'Gradle.java'));
      write(
        path.join(dist, 'bin/gradle'),
        '#!/bin/sh\njava=java; [ -n "$JAVA_HOME" ] && java="$JAVA_HOME/bin/java"\n' +
          'exec "$java" "$(dirname "$0")/../lib/Gradle.java" "$@"\n',
        0o755,
      );
      const app = path.join(spy, 'gradleapp');
      write(
        path.join(app, 'build.gradle'),
        "plugins { id 'application' }\nrepositories { mavenCentral() }\n" +
          "dependencies {\n    implementation 'org.apache.commons:commons-lang3:3.12.0'\n}\n" +
          "application { mainClass = 'demo.App' }\n",
      );
      write(
        path.join(app, 'src/main/java/demo/App.java'),
        'package demo;\nimport org.apache.commons.lang3.StringUtils;\npublic class App {\n' +
          '  public static void main(String[] a) {\n' +
          '    System.out.println(StringUtils.joinWith("-", "gradle", "ok"));\n  }\n}\n',
      );
    },
    verify:
      'd=$(mktemp -d) && cp -r "$SPY/gradleapp/." "$d" && cd "$d" && ' +
      `"$SPY/gradle-8.5/bin/gradle" --offline -q run > "$SPY/${name}.out"`,
    expected: 'gradle-ok',
    pathBelowHome: [],
    env: (home) => ({ JAVA_HOME, ...env(home) }),
    secrets: [
      // Publishing and signing credentials, as Gradle's documentation keeps them.
      [`${userHome}/gradle.properties`, 0o644, 'registry'],
      [`${userHome}/caches/owner-only-token`, 0o600],
      ['.m2/settings.xml', 0o644, 'registry'],
    ],
  };
}

/** Playwright's browsers in `browsers` (below HOME), as `npx playwright install` leaves them. */
function playwright(name: string, browsers: string, env: (home: string) => Record<string, string>): Ecosystem {
  return {
    name,
    available: () => true,
    install(home, _owner, spy) {
      const chromium = path.join(home, browsers, 'chromium-1091');
      write(
        path.join(chromium, 'chrome-linux/chrome'),
        '#!/bin/sh\necho "playwright-chromium-ok"\n[ "$1" = --headless ] || exit 1\n',
        0o755,
      );
      write(path.join(chromium, 'INSTALLATION_COMPLETE'), '');
      copyFileSync(path.join(STAND_INS, 'playwright.mjs'), path.join(spy, 'playwright.mjs'));
    },
    verify: `node "$SPY/playwright.mjs" > "$SPY/${name}.out"`,
    expected: 'playwright-chromium-ok',
    pathBelowHome: [],
    env,
    secrets: [
      [`${browsers}/owner-only-token`, 0o600],
      [`${browsers}/.env.local`, 0o644],
      ['.netrc', 0o644],
      ['.config/gh/hosts.yml', 0o644],
    ],
  };
}

function mkdirs(...parts: string[]): string {
  const dir = path.join(...parts);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  return dir;
}

/** A package with a console script `<name>` printing `<name>-ok`, built where `dir` is. */
function pythonPackage(dir: string, name: string, pyproject: string): void {
  const mod = name.replace(/-/g, '_');
  write(path.join(dir, 'pyproject.toml'), pyproject);
  write(path.join(dir, mod, '__init__.py'), `def main():\n    print("${name}-ok")\n`);
}

/** pip reads the machine's own configuration too; these keep it from any index. */
const NO_INDEX = { PIP_NO_INDEX: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' };

export const CACHE_ECOSYSTEMS: Ecosystem[] = [
  gradle('gradle', '.gradle', () => ({})),
  // A Gradle user home the workflow chose, named by GRADLE_USER_HOME (setup-gradle's variable).
  gradle('gradle-user-home', 'gradle-home', (home) => ({ GRADLE_USER_HOME: path.join(home, 'gradle-home') })),
  playwright('playwright', '.cache/ms-playwright', () => ({})),
  playwright('playwright-browsers-path', 'pw-browsers', (home) => ({
    PLAYWRIGHT_BROWSERS_PATH: path.join(home, 'pw-browsers'),
  })),
  {
    name: 'pipx',
    available: () => existsSync(PIPX) && spawnSync(PYTHON, ['-c', 'import setuptools, wheel, venv']).status === 0,
    install(home, owner, spy) {
      const pkg = runnerScratch(owner, spy, 'pipxpkg');
      pythonPackage(
        pkg,
        'pipx-greet',
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n' +
          '[project]\nname = "pipx-greet"\nversion = "1.0"\n\n[project.scripts]\npipx-greet = "pipx_greet:main"\n',
      );
      spawnSync('chown', ['-R', `${owner.uid}:${owner.gid}`, pkg]);
      asRunner(
        owner,
        home,
        [PIP, 'wheel', '--no-build-isolation', '--no-deps', '-q', '-w', 'dist', '.'],
        pkg,
        NO_INDEX,
      );
      // pipx writes absolute paths: ~/.local/bin/pipx-greet links to the venv's script, whose
      // first line names the venv's python.
      asRunner(owner, home, [PIPX, 'install', path.join(pkg, 'dist/pipx_greet-1.0-py3-none-any.whl')], pkg, NO_INDEX);
    },
    verify: '{ pipx-greet && pipx list --short; } > "$SPY/pipx.out"',
    expected: 'pipx-greet-ok\npipx-greet 1.0',
    pathBelowHome: ['.local/bin'],
    secrets: [
      // An index URL with its password, where pip reads its user configuration.
      ['.config/pip/pip.conf', 0o644, 'registry'],
      ['.pypirc', 0o644],
      ['.local/pipx/venvs/pipx-greet/owner-only-token', 0o600],
    ],
  },
  {
    name: 'poetry',
    available: () => existsSync(POETRY_MODULE),
    install(home, owner, spy) {
      const venv = path.join(home, '.local/share/pypoetry/venv');
      mkdirs(home, '.local/bin');
      mkdirs(home, '.local/share/pypoetry');
      spawnSync('chown', ['-R', `${owner.uid}:${owner.gid}`, path.join(home, '.local')]);
      asRunner(owner, home, [PYTHON, '-m', 'venv', '--system-site-packages', '--without-pip', venv], home);
      write(
        path.join(venv, 'bin/poetry'),
        `#!${venv}/bin/python\nimport sys\nfrom poetry.console.application import main\nsys.exit(main())\n`,
        0o755,
      );
      symlinkSync(path.join(venv, 'bin/poetry'), path.join(home, '.local/bin/poetry'));
      spawnSync('chown', ['-R', '-h', `${owner.uid}:${owner.gid}`, path.join(home, '.local')]);
      const poetryProject = (name: string, dependencies: string) =>
        `[tool.poetry]\nname = "${name}"\nversion = "1.0"\ndescription = ""\nauthors = ["A <a@example.com>"]\n\n` +
        `[tool.poetry.dependencies]\npython = "^3.9"\n${dependencies}\n` +
        '[build-system]\nrequires = ["poetry-core"]\nbuild-backend = "poetry.core.masonry.api"\n';
      // The project's dependency, which only `poetry install` puts into its virtualenv.
      const dep = runnerScratch(owner, spy, 'greetdep');
      write(path.join(dep, 'pyproject.toml'), poetryProject('greet-dep', ''));
      write(path.join(dep, 'greet_dep/__init__.py'), 'GREETING = "poetry-greet-ok"\n');
      const app = runnerScratch(owner, spy, 'poetryapp');
      write(
        path.join(app, 'pyproject.toml'),
        poetryProject('poetry-greet', 'greet-dep = { path = "../greetdep", develop = true }\n') +
          '\n[tool.poetry.scripts]\npoetry-greet = "poetry_greet:main"\n',
      );
      write(
        path.join(app, 'poetry_greet/__init__.py'),
        'from greet_dep import GREETING\n\ndef main():\n    print(GREETING)\n',
      );
      spawnSync('chown', ['-R', `${owner.uid}:${owner.gid}`, app, dep]);
      asRunner(owner, home, [path.join(home, '.local/bin/poetry'), 'install', '--no-interaction'], app, NO_INDEX);
    },
    // `poetry run` imports the project from the checkout, but its dependency is in the project's
    // virtualenv only because the earlier step's `poetry install` put it there: in a virtualenv
    // Poetry makes afresh (a HOME without ~/.cache/pypoetry) it fails with ModuleNotFoundError.
    verify: 'cd "$SPY/poetryapp" && poetry run poetry-greet > "$SPY/poetry.out"',
    expected: 'poetry-greet-ok',
    pathBelowHome: ['.local/bin'],
    secrets: [
      ['.config/pypoetry/auth.toml', 0o644],
      // The keyring library's file backends (keyrings.alt), where Poetry keeps repository
      // passwords on a machine without a desktop keyring; the plain-text one is not encrypted.
      ['.local/share/python_keyring/keyring_pass.cfg', 0o644],
      ['.cache/pypoetry/owner-only-token', 0o600],
    ],
  },
];
