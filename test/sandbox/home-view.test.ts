// The runner's HOME as a call sees it (src/sandbox/home-view.ts): at its own path, its tool
// folders readable and writable, what a call writes gone with the call, and no credential
// readable however it is named or kept. Runs as root (the project's CI does), as sandbox.test.ts.
// Creates a runner HOME below /opt (every call has a /tmp of its own, so a HOME below /tmp would
// be out of sight anyway), removed after each test.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';

const isRoot = process.getuid?.() === 0;
let outside: string;
let home: string;
let repo: string;
let sandbox: Sandbox;

/** Files of the runner's HOME: path, content, mode. Every secret holds SECRET. */
const FILES: [string, string, number][] = [
  ['.cargo/bin/tool', '#!/bin/sh\necho tool-ok\n', 0o755],
  ['.cargo/registry/src/idx/crate-1.0/lib.rs', 'pub fn crate_fn() {}\n', 0o644],
  ['.cargo/.package-cache', '', 0o644],
  ['.cargo/credentials.toml', '[registry]\ntoken = "SECRET-cargo"\n', 0o644],
  ['.ssh/id_ed25519', 'SECRET-ssh\n', 0o600],
  ['.npmrc', 'registry=https://npm.example.com/\n//registry.npmjs.org/:_authToken=SECRET-npmrc\n', 0o644],
  ['.env', 'API_KEY=SECRET-env\n', 0o644],
  ['notes.txt', 'SECRET-top-level-file\n', 0o644],
  ['.gitconfig', '[credential]\n\thelper = store\n[user]\n\tname = SECRET-gitconfig\n', 0o644],
  ['.cache/huggingface/token', 'SECRET-hf\n', 0o644],
  ['.cache/tool/state.json', '{"token":"SECRET-owner-only"}\n', 0o600],
  ['.cache/tool/group.json', '{"token":"SECRET-group-only"}\n', 0o640],
  ['.cache/private/readable-in-private-folder', 'SECRET-in-0700-folder\n', 0o644],
  ['.local/bin/pytool', '#!/bin/sh\necho pytool-ok\n', 0o755],
  ['.nvm/versions/node/v20/etc/npmrc', '//npm.pkg.github.com/:_authToken=SECRET-global-npmrc\n', 0o644],
  [
    '.m2/settings.xml',
    '<settings><servers><server><password>SECRET-maven</password></server></servers>' +
      '<mirrors><mirror><url>https://ci:SECRET-mirror@maven.example.com/</url></mirror></mirrors>' +
      '<profiles><profile><id>release</id><properties><gpg.passphrase>SECRET-gpg</gpg.passphrase>' +
      '<sonar.token>SECRET-sonar</sonar.token><maven.compiler.source>17</maven.compiler.source>' +
      '</properties></profile></profiles></settings>\n',
    0o644,
  ],
  ['.m2/repository/org/x/x-1.jar', 'jar\n', 0o644],
];

beforeEach(async () => {
  outside = mkdtempSync('/opt/prl-home-view-test-');
  chmodSync(outside, 0o755);
  home = path.join(outside, 'home');
  mkdirSync(home, { mode: 0o750 });
  chmodSync(home, 0o750);
  for (const [rel, content, mode] of FILES) {
    mkdirSync(path.dirname(path.join(home, rel)), { recursive: true, mode: 0o755 });
    writeFileSync(path.join(home, rel), content, { mode });
    chmodSync(path.join(home, rel), mode);
  }
  chmodSync(path.join(home, '.ssh'), 0o700);
  chmodSync(path.join(home, '.cache/private'), 0o700);
  repo = path.join(mkdtempSync(path.join(tmpdir(), 'home-view-repo-')), 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  sandbox = await createSandbox('auto', repo, { env: { HOME: home, PATH: process.env.PATH }, namespaces: true });
});
afterEach(async () => {
  await sandbox.close();
  rmSync(outside, { recursive: true, force: true });
  rmSync(path.dirname(repo), { recursive: true, force: true });
});

const sh = (script: string, vars: Record<string, string> = {}) =>
  sandbox.run(
    {
      command: '/bin/sh',
      args: ['-c', script],
      cwd: repo,
      env: { PATH: `${home}/.cargo/bin:${home}/.local/bin:/usr/bin:/bin`, ...vars },
      timeoutMs: 20_000,
    },
    { workTree: repo },
  );

/** Every file the call can reach below HOME, with whatever it could read of each. */
const WALK = 'find "$HOME" -xdev 2>/dev/null | while read -r f; do echo "== $f"; cat "$f" 2>/dev/null; done';

describe.runIf(isRoot)("the runner's HOME in a call", () => {
  it('shows the tool folders at their absolute paths and no credential, however it is kept', async () => {
    const r = await sh(`echo "home=$HOME"; tool; pytool; ${WALK}; echo end`);
    expect(r.stdout).toContain(`home=${home}`);
    // The call's own ~/.gitconfig, which lists the checkout as safe, in place of the runner's.
    expect(r.stdout).toContain(`directory = ${repo}`);
    expect(r.stdout).toContain('tool-ok');
    expect(r.stdout).toContain('pytool-ok');
    expect(r.stdout).toContain('pub fn crate_fn');
    expect(r.stdout).toContain(`== ${home}/.m2/repository/org/x/x-1.jar`);
    expect(r.stdout).not.toContain('SECRET');
    // Not even by name: credentials, owner-only files, a folder others may not enter, and what is not shared.
    for (const name of ['credentials.toml', 'id_ed25519', '.env', 'notes.txt', 'state.json', 'group.json', 'token']) {
      expect(r.stdout, name).not.toContain(`/${name}\n`);
    }
    expect(r.stdout).not.toContain('readable-in-private-folder');
    // A registry configuration is its copy stripped of credentials: the registry stays known.
    expect(r.stdout).toContain(`== ${home}/.npmrc\nregistry=https://npm.example.com/\n`);
    expect(r.stdout).toContain('<url>https://maven.example.com/</url>');
    expect(r.stdout).toContain('<properties><maven.compiler.source>17</maven.compiler.source></properties>');
    expect(r.stdout.trim().split('\n').at(-1)).toBe('end');
  });

  it('lets tools write their caches and locks, and keeps every write in the call', async () => {
    const r = await sh(
      [
        'set -e',
        'echo new > "$HOME/.cargo/registry/src/idx/crate-1.0/new.rs"',
        'mkdir "$HOME/.cargo/registry/src/idx/crate-2.0"',
        // An in-place write of a lock file the runner owns (Cargo opens .package-cache to lock it).
        'echo locked >> "$HOME/.cargo/.package-cache"',
        'rm "$HOME/.cargo/registry/src/idx/crate-1.0/lib.rs"',
        // A folder on PATH stays read-only in a call (sandbox.ts), below HOME too.
        '{ echo "echo poisoned" >> "$HOME/.local/bin/pytool"; cp /bin/true "$HOME/.cargo/bin/cargo-poison"; } 2>/dev/null || :',
        'echo "[core]" > "$HOME/.gitconfig"',
        'echo wrote',
      ].join('\n'),
    );
    expect(r.stdout + r.stderr).toContain('wrote');
    // The real HOME is as it was.
    expect(readdirSync(path.join(home, '.cargo/registry/src/idx'))).toEqual(['crate-1.0']);
    expect(readdirSync(path.join(home, '.cargo/registry/src/idx/crate-1.0'))).toEqual(['lib.rs']);
    expect(readFileSync(path.join(home, '.cargo/.package-cache'), 'utf8')).toBe('');
    expect(readFileSync(path.join(home, '.local/bin/pytool'), 'utf8')).not.toContain('poisoned');
    expect(existsSync(path.join(home, '.cargo/bin/cargo-poison'))).toBe(false);
    expect(readFileSync(path.join(home, '.gitconfig'), 'utf8')).not.toContain('[core]');
    // And the next call starts from the runner's HOME again, not from the last call's writes.
    const next = await sh('ls "$HOME/.cargo/registry/src/idx" "$HOME/.cargo/registry/src/idx/crate-1.0"; pytool');
    expect(next.stdout).toContain('lib.rs');
    expect(next.stdout).not.toContain('crate-2.0');
    expect(next.stdout).not.toContain('new.rs');
    expect(next.stdout).not.toContain('poisoned');
  });

  it('keeps the view when a toolchain variable names a shared folder', async () => {
    // CARGO_HOME reaches every call (src/agents/toolchain-env.ts), and a path a variable names is
    // shown as it is (named-paths.ts): the real ~/.cargo over the view would show its credentials.
    const r = await sh(`cat "$CARGO_HOME/credentials.toml"; echo x > "$CARGO_HOME/planted" && echo wrote; ${WALK}`, {
      CARGO_HOME: path.join(home, '.cargo'),
    });
    expect(r.stdout).toContain('wrote');
    expect(r.stdout).not.toContain('SECRET');
    expect(existsSync(path.join(home, '.cargo/planted'))).toBe(false);
  });

  it("hides a moved tool home's credentials as it hides its default folder's", async () => {
    // GRADLE_USER_HOME (setup-gradle's variable) may name any folder; Gradle keeps publishing and
    // signing passwords in gradle.properties there as it does in ~/.gradle.
    const moved: [string, string][] = [
      ['ci/gradle/gradle.properties', 'signing.password=SECRET-moved-gradle\n'],
      ['ci/gradle/caches/modules-2/files-2.1/x.jar', 'cached-jar\n'],
      ['ci/cargo/credentials.toml', '[registry]\ntoken = "SECRET-moved-cargo"\n'],
      ['ci/cargo/registry/index.json', 'cargo-index\n'],
    ];
    for (const [rel, content] of moved) {
      mkdirSync(path.dirname(path.join(home, rel)), { recursive: true, mode: 0o755 });
      writeFileSync(path.join(home, rel), content, { mode: 0o644 });
    }
    await sandbox.close();
    const env = {
      HOME: home,
      PATH: process.env.PATH,
      GRADLE_USER_HOME: path.join(home, 'ci/gradle'),
      CARGO_HOME: path.join(home, 'ci/cargo'),
    };
    sandbox = await createSandbox('auto', repo, { env, namespaces: true });
    const r = await sh(`${WALK}; echo end`);
    expect(r.stdout).toContain('cached-jar');
    expect(r.stdout).toContain('cargo-index');
    expect(r.stdout).not.toContain('SECRET');
    expect(r.stdout).not.toContain('credentials.toml');
    expect(r.stdout.trim().split('\n').at(-1)).toBe('end');
  });

  it('mounts a checkout kept below HOME back into the view, as on a hosted runner', async () => {
    // GitHub's hosted runners check out into /home/runner/work/<repo>/<repo>, inside HOME.
    const inside = path.join(home, 'work', 'app', 'app');
    mkdirSync(inside, { recursive: true });
    execFileSync('git', ['init', '-q', inside]);
    writeFileSync(path.join(inside, 'a.txt'), 'a\n');
    execFileSync('git', ['-C', inside, 'add', 'a.txt']);
    writeFileSync(path.join(home, 'work', 'runner-file'), 'SECRET-work\n', { mode: 0o644 });
    await sandbox.close();
    sandbox = await createSandbox('auto', inside, { env: { HOME: home, PATH: process.env.PATH }, namespaces: true });
    const r = await sandbox.run(
      {
        command: '/bin/sh',
        args: [
          '-c',
          `cat a.txt && echo b > b.txt && echo wrote; ls -A "$HOME/work"; cat "$HOME/work/runner-file"; tool`,
        ],
        cwd: inside,
        env: { PATH: `${home}/.cargo/bin:/usr/bin:/bin` },
        timeoutMs: 20_000,
      },
      { workTree: inside },
    );
    expect(r.stdout).toContain('wrote');
    expect(r.stdout).toContain('tool-ok');
    expect(r.stdout).not.toContain('SECRET');
    expect(r.stdout).not.toContain('runner-file');
    // The checkout itself is the real one: what the call wrote there is there.
    expect(readFileSync(path.join(inside, 'b.txt'), 'utf8')).toBe('b\n');
  });

  it('shows no credential of sbt, Bundler or Hugging Face, and a registry file as its stripped copy', async () => {
    const planted: [string, string][] = [
      ['.ivy2/.credentials', 'realm=x\nhost=h\nuser=u\npassword=SECRET-ivy\n'],
      ['.ivy2/cache/org/x/ivy.xml', 'ivy-cache-ok\n'],
      ['.sbt/.credentials', 'password=SECRET-sbt\n'],
      ['.sbt/1.0/global.sbt', 'credentials += Credentials("r", "h", "u", "SECRET-sbt-global")\n'],
      ['.bundle/config', '---\nBUNDLE_PATH: "vendor/bundle"\nBUNDLE_GEMS__EXAMPLE__COM: "u:SECRET-bundler"\n'],
      ['.cache/huggingface/stored_tokens', '[ci]\nhf_token = SECRET-hf-stored\n'],
      ['.gradle/init.d/mirror.gradle', '// SECRET-init\n'],
    ];
    for (const [rel, content] of planted) {
      mkdirSync(path.dirname(path.join(home, rel)), { recursive: true, mode: 0o755 });
      writeFileSync(path.join(home, rel), content, { mode: 0o644 });
    }
    await sandbox.close();
    const log: string[] = [];
    sandbox = await createSandbox('auto', repo, {
      env: { HOME: home, PATH: process.env.PATH },
      namespaces: true,
      log: (l) => log.push(l),
    });
    const r = await sh(`${WALK}; echo end`);
    expect(r.stdout).toContain('ivy-cache-ok');
    expect(r.stdout).toContain('BUNDLE_PATH: "vendor/bundle"');
    expect(r.stdout).not.toContain('SECRET');
    for (const name of ['.credentials', 'stored_tokens', 'global.sbt', 'init.d']) {
      expect(r.stdout, name).not.toContain(name);
    }
    expect(r.stdout.trim().split('\n').at(-1)).toBe('end');
    // A registry configuration hidden is never silently dropped: the log says what to pass instead.
    expect(log.join('\n')).toMatch(/\.gradle\/init\.d is hidden from calls[^\n]*verify-env/);
  });

  it('shows a tool folder a variable moved into a hidden folder by its rules, never as it is', async () => {
    // GRADLE_USER_HOME and CARGO_HOME in RUNNER_TEMP, as a workflow may set them.
    const temp = path.join(outside, 'runner-temp');
    const moved: [string, string, number][] = [
      ['gradle-home/gradle.properties', 'org.gradle.caching=true\nsigning.password=SECRET-moved-gradle\n', 0o644],
      ['gradle-home/caches/modules-2/x.txt', 'moved-cache-ok\n', 0o644],
      ['gradle-home/caches/owner-only', 'SECRET-owner\n', 0o600],
      ['cargo-home/credentials.toml', 'token = "SECRET-moved-cargo"\n', 0o644],
      ['cargo-home/registry/index.txt', 'moved-cargo-ok\n', 0o644],
    ];
    for (const [rel, content, mode] of moved) {
      mkdirSync(path.dirname(path.join(temp, rel)), { recursive: true, mode: 0o755 });
      writeFileSync(path.join(temp, rel), content, { mode });
      chmodSync(path.join(temp, rel), mode);
    }
    const vars = { GRADLE_USER_HOME: path.join(temp, 'gradle-home'), CARGO_HOME: path.join(temp, 'cargo-home') };
    await sandbox.close();
    sandbox = await createSandbox('auto', repo, {
      env: { HOME: home, PATH: process.env.PATH, RUNNER_TEMP: temp, ...vars },
      namespaces: true,
    });
    const walkMoved = WALK.replace('"$HOME"', '"$GRADLE_USER_HOME" "$CARGO_HOME"');
    const r = await sh(`${walkMoved}; echo x > "$GRADLE_USER_HOME/caches/new" && echo wrote; echo end`, vars);
    expect(r.stdout).toContain('moved-cache-ok');
    expect(r.stdout).toContain('moved-cargo-ok');
    expect(r.stdout).toContain('org.gradle.caching=true');
    expect(r.stdout).not.toContain('SECRET');
    expect(r.stdout).not.toContain('credentials.toml');
    expect(r.stdout).not.toContain('owner-only');
    // Tools write their folder; the write stays in the call.
    expect(r.stdout).toContain('wrote');
    expect(existsSync(path.join(temp, 'gradle-home/caches/new'))).toBe(false);
  });

  it('shows a tool folder a variable moved into the checkout by its rules', async () => {
    const gradleHome = path.join(repo, '.gradle');
    mkdirSync(path.join(gradleHome, 'caches'), { recursive: true, mode: 0o755 });
    writeFileSync(path.join(gradleHome, 'gradle.properties'), 'signing.password=SECRET-checkout-gradle\n');
    writeFileSync(path.join(gradleHome, 'caches/x.txt'), 'checkout-cache-ok\n');
    await sandbox.close();
    sandbox = await createSandbox('auto', repo, {
      env: { HOME: home, PATH: process.env.PATH, GRADLE_USER_HOME: gradleHome },
      namespaces: true,
    });
    const r = await sh(`cat "$GRADLE_USER_HOME/caches/x.txt" "$GRADLE_USER_HOME/gradle.properties"; echo end`, {
      GRADLE_USER_HOME: gradleHome,
    });
    expect(r.stdout).toContain('checkout-cache-ok');
    expect(r.stdout).not.toContain('SECRET');
  });

  it('shows a PATH folder below HOME through the view, read-only, by its rules', async () => {
    writeFileSync(path.join(home, '.local/bin/.netrc'), 'machine x password SECRET-netrc-in-bin\n', { mode: 0o644 });
    writeFileSync(path.join(home, '.local/bin/runner-only'), 'SECRET-runner-only\n', { mode: 0o600 });
    chmodSync(path.join(home, '.local/bin/runner-only'), 0o600);
    // The view is built from HOME as the sandbox found it: its walk may have run before these files
    // were written (it did under load), so the sandbox is made again now that they are there.
    await sandbox.close();
    sandbox = await createSandbox('auto', repo, { env: { HOME: home, PATH: process.env.PATH }, namespaces: true });
    const r = await sh(
      'ls -a "$HOME/.local/bin"; cat "$HOME/.local/bin/.netrc"; pytool; ' +
        '{ echo x > "$HOME/.local/bin/planted" && echo planted; } 2>/dev/null; echo end',
    );
    expect(r.stdout).toContain('pytool-ok');
    expect(r.stdout).not.toContain('SECRET');
    expect(r.stdout).not.toContain('.netrc');
    expect(r.stdout).not.toContain('runner-only');
    expect(r.stdout).not.toContain('planted');
    expect(r.stdout.trim().split('\n').at(-1)).toBe('end');
  });
});
