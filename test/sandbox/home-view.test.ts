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
  ['.npmrc', '//registry.npmjs.org/:_authToken=SECRET-npmrc\n', 0o644],
  ['.env', 'API_KEY=SECRET-env\n', 0o644],
  ['notes.txt', 'SECRET-top-level-file\n', 0o644],
  ['.gitconfig', '[credential]\n\thelper = store\n[user]\n\tname = SECRET-gitconfig\n', 0o644],
  ['.cache/huggingface/token', 'SECRET-hf\n', 0o644],
  ['.cache/tool/state.json', '{"token":"SECRET-owner-only"}\n', 0o600],
  ['.cache/tool/group.json', '{"token":"SECRET-group-only"}\n', 0o640],
  ['.cache/private/readable-in-private-folder', 'SECRET-in-0700-folder\n', 0o644],
  ['.local/bin/pytool', '#!/bin/sh\necho pytool-ok\n', 0o755],
  ['.nvm/versions/node/v20/etc/npmrc', '//npm.pkg.github.com/:_authToken=SECRET-global-npmrc\n', 0o644],
  ['.m2/settings.xml', '<password>SECRET-maven</password>\n', 0o644],
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
    // Not even by name: denied names, owner-only files, a folder others may not enter, and what is not shared.
    for (const name of ['credentials.toml', 'id_ed25519', '.npmrc', '.env', 'notes.txt', 'state.json', 'group.json']) {
      expect(r.stdout, name).not.toContain(`/${name}\n`);
    }
    expect(r.stdout).not.toContain('readable-in-private-folder');
    expect(r.stdout).not.toContain('settings.xml');
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
    expect(r.stdout).not.toContain('gradle.properties');
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
});
