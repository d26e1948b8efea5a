// The credentials of every tool the HOME view has rules for, and the places a tool's folder can be
// besides its default one, run by toolchain-home.test.ts beside the real toolchains (in one file,
// so that no two cases share the runner user's HOME at once), on both privilege paths:
// - every tool's documented credential file planted at once, each at the mode the tool writes it
//   with (0644 where its documentation names none), and each registry configuration with a
//   credential in it: none is read, no credential is listed, a registry file is at most its
//   stripped copy;
// - tool folders a variable moves into RUNNER_TEMP (GRADLE_USER_HOME, CARGO_HOME, COMPOSER_HOME,
//   POETRY_HOME): their credentials hidden as at the default place, their caches shown;
// - a PATH folder below HOME (`~/.local/bin`): its program runs, a `.netrc` there is not read and
//   a file only the runner may read there is not listed.
// What it changes outside the repository: on the runner-user path, what each case lays out in the
// suite's runner user's HOME, removed after the test.
import path from 'node:path';
import { type Ecosystem, type Secret, write } from './toolchain-home-suite.js';

const NPMRC =
  'registry=https://npm.example.com/\n//npm.example.com/:_authToken={{NEEDLE}}\n' +
  '@acme:registry=https://npm.example.com/?access_token={{NEEDLE}}&scope=acme\n';

/** Each tool's credential files (tool-rules.ts cites where each tool documents them). */
const CREDENTIALS: Secret[] = [
  ['.cargo/credentials.toml', 0o600],
  ['.cargo/credentials', 0o644],
  ['.m2/settings-security.xml', 0o644],
  ['.ivy2/.credentials', 0o644],
  ['.sbt/.credentials', 0o644],
  ['.gem/credentials', 0o600],
  ['.composer/auth.json', 0o644],
  ['.config/composer/auth.json', 0o644],
  ['.config/dart/pub-credentials.json', 0o644],
  ['.config/dart/pub-tokens.json', 0o644],
  ['.pub-cache/credentials.json', 0o644],
  ['.cache/huggingface/stored_tokens', 0o644],
  ['.pypirc', 0o644],
  ['.netrc', 0o644],
  ['.git-credentials', 0o600],
  ['.config/pypoetry/auth.toml', 0o644],
  ['.local/share/python_keyring/keyring_pass.cfg', 0o644],
  ['.local/share/keyrings/login.keyring', 0o600],
  ['.config/gh/hosts.yml', 0o600],
  ['.kube/config', 0o600],
  ['.vault-token', 0o600],
  ['.terraform.d/credentials.tfrc.json', 0o644],
];

/** Each tool's registry configuration, holding a credential as users write one there. */
const REGISTRIES: Secret[] = [
  // Gemfury's token is the path's first segment (this needle has no `/`, which would end the segment).
  ['.npmrc', 0o644, 'registry', `${NPMRC}@fury:registry=https://npm.fury.io/{{NEEDLE}}/\n`],
  ['.nvm/versions/node/v20.0.0/etc/npmrc', 0o644, 'registry', NPMRC],
  ['.yarnrc', 0o644, 'registry', 'registry "https://npm.example.com/"\n"//npm.example.com/:_authToken" "{{NEEDLE}}"\n'],
  ['.yarnrc.yml', 0o644, 'registry', 'npmRegistryServer: "https://npm.example.com"\nnpmAuthToken: "{{NEEDLE}}"\n'],
  [
    '.config/pip/pip.conf',
    0o644,
    'registry',
    '[global]\nindex-url = https://ci:{{NEEDLE}}@pypi.example.com/simple\n' +
      'extra-index-url = https://x.example.com/simple/?token={{NEEDLE}}\n',
  ],
  ['.config/go/env', 0o644, 'registry', 'GOPROXY=https://ci:{{NEEDLE}}@proxy.example.com\nGOPRIVATE=example.com\n'],
  [
    '.cargo/config.toml',
    0o644,
    'registry',
    '[registries.acme]\nindex = "sparse+https://c.example.com/"\ntoken = "{{NEEDLE}}"\n',
  ],
  [
    '.gradle/gradle.properties',
    0o644,
    'registry',
    'org.gradle.jvmargs=-Xmx1g -Djavax.net.ssl.trustStorePassword={{NEEDLE}} "-Dx.password=a {{NEEDLE}}"\n' +
      'signing.password={{NEEDLE}}\n',
  ],
  ['.gradle/init.d/repositories.gradle', 0o644, 'registry', '// password: {{NEEDLE}}\n'],
  [
    '.m2/settings.xml',
    0o644,
    'registry',
    '<settings><servers><server><id>acme</id><password>{{NEEDLE}}</password></server></servers>' +
      '<mirrors><mirror><id>acme</id><url>https://maven.example.com/</url>' +
      '<mirrorOf>*</mirrorOf></mirror></mirrors>' +
      '<profiles><profile><properties><gpg.passphrase>{{NEEDLE}}</gpg.passphrase></properties></profile></profiles>' +
      '</settings>\n',
  ],
  [
    '.nuget/NuGet/NuGet.Config',
    0o644,
    'registry',
    '<configuration><packageSources><add key="acme" value="https://nuget.example.com/index.json" />' +
      '<add key="b" value="https://b.example.com/index.json?v=3&amp;apikey={{NEEDLE}}" /></packageSources>' +
      '<packageSourceCredentials><acme><add key="ClearTextPassword" value="{{NEEDLE}}" /></acme>' +
      "</packageSourceCredentials><config><add key='http_proxy.password' value='{{NEEDLE}}' /></config>" +
      '</configuration>\n',
  ],
  ['.condarc', 0o644, 'registry', 'channels:\n  - https://conda.example.com/t/{{NEEDLE}}/acme\n'],
  [
    '.bundle/config',
    0o644,
    'registry',
    '---\nBUNDLE_PATH: "vendor/bundle"\nBUNDLE_GEMS__EXAMPLE__COM: "ci:{{NEEDLE}}"\n',
  ],
  ['.gemrc', 0o644, 'registry', ':sources:\n- https://ci:{{NEEDLE}}@gems.example.com/\n'],
  ['.composer/config.json', 0o644, 'registry', '{"config":{"github-oauth":{"github.com":"{{NEEDLE}}"}}}\n'],
  ['.sbt/repositories', 0o644, 'registry', '[repositories]\n  acme: https://ci:{{NEEDLE}}@repo.example.com/\n'],
  ['.sbt/1.0/global.sbt', 0o644, 'registry', 'credentials += Credentials("r", "h", "u", "{{NEEDLE}}")\n'],
  [
    '.config/pypoetry/config.toml',
    0o644,
    'registry',
    '[repositories.acme]\nurl = "https://ci:{{NEEDLE}}@p.example.com/"\n',
  ],
  ['.bunfig.toml', 0o644, 'registry', '[install]\nregistry = "https://ci:{{NEEDLE}}@npm.example.com/"\n'],
];

export const CREDENTIAL_ECOSYSTEMS: Ecosystem[] = [
  {
    name: 'every-credential',
    available: () => true,
    install(home) {
      // A cache of each tool beside its credentials, which the call does see.
      write(path.join(home, '.ivy2/cache/org.example/x/ivy-1.0.xml'), 'ivy-cache-ok\n');
      write(path.join(home, '.cache/huggingface/hub/version.txt'), 'hf-cache-ok\n');
    },
    verify:
      'cat "$HOME/.ivy2/cache/org.example/x/ivy-1.0.xml" "$HOME/.cache/huggingface/hub/version.txt" ' +
      '> "$SPY/every-credential.out"',
    expected: 'ivy-cache-ok\nhf-cache-ok',
    pathBelowHome: [],
    secrets: [...CREDENTIALS, ...REGISTRIES],
  },
  {
    name: 'moved-tool-folders',
    available: () => true,
    install(_home, _owner, _spy, runnerTemp) {
      write(path.join(runnerTemp, 'gradle-home/caches/modules-2/files-2.1/x.txt'), 'moved-gradle-cache-ok\n');
      write(path.join(runnerTemp, 'cargo-home/registry/index/x.txt'), 'moved-cargo-cache-ok\n');
    },
    verify:
      'cat "$GRADLE_USER_HOME/caches/modules-2/files-2.1/x.txt" "$CARGO_HOME/registry/index/x.txt" ' +
      '> "$SPY/moved-tool-folders.out"',
    expected: 'moved-gradle-cache-ok\nmoved-cargo-cache-ok',
    pathBelowHome: [],
    env: (_home, runnerTemp) => ({
      GRADLE_USER_HOME: path.join(runnerTemp, 'gradle-home'),
      CARGO_HOME: path.join(runnerTemp, 'cargo-home'),
      COMPOSER_HOME: path.join(runnerTemp, 'composer-home'),
      POETRY_HOME: path.join(runnerTemp, 'poetry-home'),
    }),
    secrets: [],
    elsewhere: [
      ['gradle-home/gradle.properties', 0o644, 'registry', 'org.gradle.caching=true\nsigning.password={{NEEDLE}}\n'],
      ['gradle-home/init.d/creds.gradle', 0o644, 'registry', '// {{NEEDLE}}\n'],
      ['cargo-home/credentials.toml', 0o644],
      ['composer-home/auth.json', 0o644],
      ['poetry-home/auth.toml', 0o644],
    ],
  },
  {
    name: 'path-below-home',
    available: () => true,
    install(home) {
      write(path.join(home, '.local/bin/greet-path'), '#!/bin/sh\necho path-tool-ok\n', 0o755);
    },
    verify: 'greet-path > "$SPY/path-below-home.out"',
    expected: 'path-tool-ok',
    pathBelowHome: ['.local/bin'],
    secrets: [
      ['.local/bin/.netrc', 0o644],
      ['.local/bin/runner-only-token', 0o600],
    ],
  },
];
