// What the runner's HOME shows a call, per tool (src/sandbox/tool-rules.ts): each tool's documented
// credential files are credentials, its registry configuration is shown stripped or hidden with what
// to pass instead, the settings it needs are shown, and what a tool's folder holds unlisted is
// hidden. And each registry format, stripped, keeps the registry's address and no credential.
import { describe, expect, it } from 'vitest';
import { homeViewPlan, movedToolFolderPlans, verdictOf, type HomeViewPlan } from '../../src/sandbox/home-view.js';
import { stripCredentials, type StripFormat } from '../../src/sandbox/strip-credentials.js';
import { classify } from '../../src/sandbox/tool-rules.js';
import { withheldBySandbox } from '../../src/commands/withheld.js';

type Case = [path: string, expected: string];

/** Per tool: its documented files and what the view does with each (see each rule's `docs`). */
const TOOLS: Record<string, Case[]> = {
  Cargo: [
    ['.cargo/bin/cargo', 'toolchain'],
    ['.cargo/registry/index/x', 'cache'],
    ['.cargo/env', 'settings'],
    ['.cargo/config.toml', 'registry'],
    ['.cargo/credentials.toml', 'credential'],
    ['.cargo/credentials', 'credential'],
    ['.cargo/some-file', 'unlisted'],
  ],
  rustup: [
    ['.rustup/toolchains/stable/bin/rustc', 'toolchain'],
    ['.rustup/settings.toml', 'settings'],
    ['.rustup/other', 'unlisted'],
  ],
  Go: [
    ['go/pkg/mod/cache/x', 'cache'],
    ['go/bin/tool', 'toolchain'],
    ['.config/go/env', 'registry'],
    ['.netrc', 'credential'],
  ],
  Maven: [
    ['.m2/repository/org/x.jar', 'cache'],
    ['.m2/settings.xml', 'registry'],
    ['.m2/settings-security.xml', 'credential'],
    ['.m2/toolchains.xml', 'settings'],
  ],
  Gradle: [
    ['.gradle/caches/modules-2/x.jar', 'cache'],
    ['.gradle/wrapper/dists/gradle-8.5-bin/x', 'settings'],
    ['.gradle/gradle.properties', 'registry'],
    ['.gradle/init.d/mirror.gradle', 'registry'],
    ['.gradle/init.gradle.kts', 'registry'],
    ['.gradle/daemon/8.5/registry.bin', 'unlisted'],
  ],
  'sbt and Ivy': [
    ['.ivy2/.credentials', 'credential'],
    ['.sbt/.credentials', 'credential'],
    ['.ivy2/cache/org/x.jar', 'cache'],
    ['.sbt/boot/scala-2.12/lib/x.jar', 'toolchain'],
    ['.sbt/1.0', 'passage'],
    ['.sbt/1.0/zinc/x', 'cache'],
    ['.sbt/1.0/global.sbt', 'registry'],
    ['.sbt/1.0/plugins/credentials.sbt', 'registry'],
    ['.sbt/repositories', 'registry'],
    ['.sbt/1.0/other', 'unlisted'],
  ],
  npm: [
    ['.npmrc', 'registry'],
    ['.nvm/versions/node/v20.0.0/etc/npmrc', 'registry'],
    ['.npm/_cacache/index-v5/x', 'cache'],
    ['.npm/_logs/debug.log', 'unlisted'],
  ],
  Yarn: [
    ['.yarnrc', 'registry'],
    ['.yarnrc.yml', 'registry'],
    ['.yarn/berry/cache/x.zip', 'cache'],
  ],
  nvm: [
    ['.nvm/alias/default', 'settings'],
    ['.nvm/versions/node/v20.0.0/bin/node', 'cache'],
  ],
  'pip and Python': [
    ['.config/pip/pip.conf', 'registry'],
    ['.pip/pip.conf', 'registry'],
    ['.pypirc', 'credential'],
    ['.local/bin/pytool', 'toolchain'],
    ['.local/lib/python3.11/site-packages/x.py', 'toolchain'],
    ['.local/share/keyrings/login.keyring', 'credential'],
    ['.local/share/python_keyring/keyring_pass.cfg', 'credential'],
    ['.local/share/fish/fish_history', 'unlisted'],
    ['.local/share/virtualenv/wheel/3.11/image/x.whl', 'cache'],
    ['.local/bin/.netrc', 'credential'],
  ],
  Poetry: [
    ['.local/share/pypoetry/venv/bin/poetry', 'cache'],
    ['.config/pypoetry/auth.toml', 'credential'],
    ['.config/pypoetry/config.toml', 'registry'],
  ],
  'pyenv, rbenv, SDKMAN!': [
    ['.pyenv/version', 'settings'],
    ['.rbenv/version', 'settings'],
    ['.sdkman/etc/config', 'settings'],
    ['.sdkman/candidates/java/current/bin/java', 'toolchain'],
  ],
  RubyGems: [
    ['.gem/credentials', 'credential'],
    ['.gemrc', 'registry'],
    ['.gem/ruby/3.2.0/gems/x/lib/x.rb', 'toolchain'],
  ],
  Bundler: [
    ['.bundle/config', 'registry'],
    ['.bundle/cache/x.gem', 'cache'],
    ['.bundle/other', 'unlisted'],
  ],
  Composer: [
    ['.composer/auth.json', 'credential'],
    ['.config/composer/auth.json', 'credential'],
    ['.composer/config.json', 'registry'],
    ['.config/composer/vendor/bin/phpunit', 'toolchain'],
    ['.composer/cache/files/x', 'cache'],
  ],
  NuGet: [
    ['.nuget/NuGet/NuGet.Config', 'registry'],
    ['.nuget/packages/x/1.0/x.nupkg', 'cache'],
    ['.nuget/NuGet/other', 'unlisted'],
    ['.dotnet/tools/dotnet-format', 'cache'],
    ['.dotnet/corefx/cryptography/x509stores/my/cert.pfx', 'credential'],
  ],
  pub: [
    ['.config/dart/pub-credentials.json', 'credential'],
    ['.config/dart/pub-tokens.json', 'credential'],
    ['.pub-cache/credentials.json', 'credential'],
    ['.pub-cache/hosted/pub.dev/x-1.0/lib/x.dart', 'cache'],
    ['.pub-cache/bin/tool', 'toolchain'],
  ],
  'Hugging Face': [
    ['.cache/huggingface/token', 'credential'],
    ['.cache/huggingface/stored_tokens', 'credential'],
    ['.cache/huggingface/hub/models--x/blobs/y', 'cache'],
  ],
  Conda: [
    ['.condarc', 'registry'],
    ['.conda/.condarc', 'registry'],
    ['.config/conda/.condarc', 'registry'],
    ['.conda/pkgs/x.conda', 'cache'],
    ['.conda/environments.txt', 'settings'],
  ],
  'any tool': [
    ['.ssh/id_ed25519', 'credential'],
    ['.git-credentials', 'credential'],
    ['.cache/tool/.env.local', 'credential'],
    ['.docker/config.json', 'credential'],
    ['notes.txt', 'unlisted'],
    ['.config/gh/hosts.yml', 'credential'],
  ],
};

describe('each tool’s rule', () => {
  for (const [tool, cases] of Object.entries(TOOLS)) {
    it(tool, () => {
      for (const [rel, want] of cases) expect(classify(rel).class, rel).toBe(want);
    });
  }

  it('gives every hidden registry configuration and credential what to pass instead', () => {
    for (const rel of ['.gradle/init.d/mirror.gradle', '.sbt/1.0/global.sbt', '.ivy2/.credentials', '.npmrc']) {
      const v = classify(rel);
      expect('entry' in v && v.entry?.pass, rel).toMatch(/\S/);
    }
  });
});

const PLAIN: HomeViewPlan = { home: '/h', shared: [], files: [], moved: [], open: [], denied: [] };

describe('a folder a variable moved', () => {
  it('keeps its default place’s rules inside HOME', () => {
    const plan = homeViewPlan({ HOME: '/tmp', GRADLE_USER_HOME: '/tmp/ci/gradle', HF_HOME: '/tmp/hf' })!;
    expect(verdictOf(plan, 'ci/gradle/gradle.properties').class).toBe('registry');
    expect(verdictOf(plan, 'ci/gradle/caches/x').class).toBe('cache');
    expect(verdictOf(plan, 'ci/gradle/other').class).toBe('unlisted');
    expect(verdictOf(plan, 'hf/stored_tokens').class).toBe('credential');
  });

  it('keeps them outside HOME, a view of its own', () => {
    const plans = movedToolFolderPlans({ HOME: '/nonexistent-home', CARGO_HOME: '/tmp', JAVA_HOME: '/usr' });
    expect(plans.map((p) => p.home)).toEqual(['/tmp']);
    expect(verdictOf(plans[0]!, 'credentials.toml').class).toBe('credential');
    expect(verdictOf(plans[0]!, 'registry/cache/x').class).toBe('cache');
  });

  it('shows a PATH folder below HOME through the view, by the rules', () => {
    const plan = homeViewPlan({ HOME: '/tmp', PATH: '/tmp/tools/bin:/usr/bin' })!;
    expect(plan.open).toContain('tools/bin');
    expect(verdictOf(plan, 'tools/bin/run').class).toBe('cache');
    expect(verdictOf(plan, 'tools/bin/.netrc').class).toBe('credential');
    expect(verdictOf(PLAIN, 'tools/bin/run').class).toBe('unlisted');
  });
});

/** Per format: a file as users write it, the secrets it holds, and the address that must stay. */
const FORMATS: [StripFormat, string, string[], string[]][] = [
  [
    'npmrc',
    'registry=https://npm.example.com/\n@acme:registry=https://ci:S1@npm.pkg.github.com/\n' +
      '//npm.pkg.github.com/:_authToken=S2\n_auth=S3\nemail=me@example.com\n; _password=S4\ngarbage S5 here\n',
    ['S1', 'S2', 'S3', 'S4', 'S5', 'me@example.com'],
    ['registry=https://npm.example.com/', '@acme:registry=https://npm.pkg.github.com/'],
  ],
  [
    'yarnrc',
    'registry "https://u:S1@npm.example.com/"\n"//npm.example.com/:_authToken" "S2"\n# _auth S3\n',
    ['S1', 'S2', 'S3'],
    ['registry "https://npm.example.com/"'],
  ],
  [
    'ini',
    '[global]\nindex-url = https://u:S1@pypi.example.com/simple\n' +
      'extra-index-url =\n    https://u:S2@x.example.com/simple\n' +
      'client-cert = /S3.pem\n[install]\npassword = S4\n# token = S5\n',
    ['S1', 'S2', 'S3', 'S4', 'S5'],
    ['index-url = https://pypi.example.com/simple', 'https://x.example.com/simple'],
  ],
  [
    'env',
    'GOPROXY=https://u:S1@proxy.example.com,direct\nGOPRIVATE=example.com/*\nGOAUTH=git S2\nS3 junk\n',
    ['S1', 'S2', 'S3'],
    ['GOPROXY=https://proxy.example.com,direct', 'GOPRIVATE=example.com/*'],
  ],
  [
    'toml',
    '[registries.acme]\nindex = "sparse+https://u:S1@cargo.example.com/"\ntoken = "S2"\n' +
      '[registry]\nglobal-credential-providers = [\n  "cargo:S3",\n]\n' +
      'other = { index = "https://x/", token = "S4" }\n[http]\nproxy = "http://u:S5@proxy:8080"\n',
    ['S1', 'S2', 'S3', 'S4', 'S5'],
    ['index = "sparse+https://cargo.example.com/"', '[registries.acme]', 'proxy = "http://proxy:8080"'],
  ],
  [
    'yaml',
    'channels:\n  - https://conda.example.com/t/S1/acme\n  - defaults\nnpmAuthToken: S2\nnpmScopes:\n  acme:\n' +
      '    npmRegistryServer: "https://npm.example.com"\n    npmAuthIdent: "u:S3"\nnpmRegistries:\n' +
      '  "//npm.example.com":\n    npmAuthToken: S4\n',
    ['S1', 'S2', 'S3', 'S4'],
    ['- https://conda.example.com/acme', 'npmRegistryServer: "https://npm.example.com"'],
  ],
  [
    'bundler',
    '---\nBUNDLE_PATH: "vendor/bundle"\nBUNDLE_GEMS__CONTRIBSYS__COM: "u:S1"\n' +
      'BUNDLE_MIRROR__RUBYGEMS__ORG: "https://u:S2@gems.example.com"\nBUNDLE_RUBYGEMS__PKG__GITHUB__COM: "S3"\n',
    ['S1', 'S2', 'S3'],
    ['BUNDLE_PATH: "vendor/bundle"', 'BUNDLE_MIRROR__RUBYGEMS__ORG: "https://gems.example.com"'],
  ],
  [
    'properties',
    'org.gradle.jvmargs=-Xmx2g\nsigning.password=S1\nmavenCentralPassword=S2\nsystemProp.https.proxyPassword=S3\n' +
      'systemProp.https.proxyHost=proxy.example.com\nORG_GRADLE_PROJECT_x=S4\n',
    ['S1', 'S2', 'S3', 'S4'],
    ['org.gradle.jvmargs=-Xmx2g', 'systemProp.https.proxyHost=proxy.example.com'],
  ],
  [
    'json',
    '{"config":{"github-oauth":{"github.com":"S1"},"http-basic":{"x":{"username":"u","password":"S2"}},' +
      '"bearer":{"x":"S3"},"gitlab-token":{"x":"S4"}},' +
      '"repositories":[{"type":"composer","url":"https://u:S5@repo.example.com"}]}',
    ['S1', 'S2', 'S3', 'S4', 'S5'],
    ['"url": "https://repo.example.com"'],
  ],
  [
    'maven',
    '<settings>\n<servers><server><id>acme</id><username>u</username><password>S1</password></server></servers>\n' +
      '<mirrors><mirror><id>acme</id><url>https://u:S2@maven.example.com/</url>' +
      '<mirrorOf>*</mirrorOf></mirror></mirrors>\n' +
      '<proxies><proxy><host>p</host><username>u</username><password>S3</password></proxy></proxies>\n' +
      '<!-- <password>S4</password> -->\nS5 text\n</settings>\n',
    ['S1', 'S2', 'S3', 'S4', 'S5'],
    ['<url>https://maven.example.com/</url>', '<mirrorOf>*</mirrorOf>'],
  ],
  [
    'nuget',
    '<configuration>\n<packageSources>' +
      '<add key="acme" value="https://nuget.example.com/v3/index.json" /></packageSources>\n' +
      '<packageSourceCredentials><acme><add key="Username" value="u" />' +
      '<add key="ClearTextPassword" value="S1" /></acme>' +
      '</packageSourceCredentials>\n<apikeys><add key="https://x" value="S2" /></apikeys>\n</configuration>\n',
    ['S1', 'S2'],
    ['<add key="acme" value="https://nuget.example.com/v3/index.json" />'],
  ],
  [
    'urls',
    '[repositories]\n  local\n  acme: https://u:S1@repo.example.com/maven\n  token = S2\n',
    ['S1', 'S2'],
    ['acme: https://repo.example.com/maven', '[repositories]'],
  ],
];

describe('a registry configuration, stripped', () => {
  for (const [format, text, secrets, kept] of FORMATS) {
    it(`${format}: keeps the address, no credential`, () => {
      const out = stripCredentials(format, text);
      expect(out, format).not.toBeNull();
      for (const s of secrets) expect(out, `${format}: ${s}`).not.toContain(s);
      for (const k of kept) expect(out, `${format}: ${k}`).toContain(k);
    });
  }

  it('takes a URL’s password even with an unescaped `/` in it, never a port', () => {
    const out = stripCredentials('npmrc', 'a=https://ci:S1/x/y@h.example.com/\nb=https://h.example.com:8443/@acme/x\n');
    expect(out).toBe('a=https://h.example.com/\nb=https://h.example.com:8443/@acme/x\n');
  });

  it('reads 200,000-character lines a setup command may write as short ones', () => {
    // The comment and `<add key=…/>` regexes once retried from each character of such a line
    // (quadratic, and cubic for `<add`); a blocked event loop fires no timeout, so check results.
    const tabs = '\t'.repeat(200_000);
    expect(stripCredentials('toml', `a = "b"${tabs}x\t# note\n`)).toBe(`a = "b"${tabs}x\n`);
    expect(stripCredentials('yaml', `a: b${tabs}x\t# note\n`)).toBe(`a: b${tabs}x\n`);
    const hashes = ' #'.repeat(100_000);
    expect(stripCredentials('toml', `a = "b"${hashes} "c" # note\n`)).toBe(`a = "b"${hashes} "c"\n`);
    // Brackets are counted outside strings: a long string of escaped quotes, closed or not.
    const escaped = '\\"'.repeat(100_000);
    const array = `a = ["b", "${escaped}",\n  "e",\n]\nc = "d"\n`;
    expect(stripCredentials('toml', array)).toBe(array);
    expect(stripCredentials('toml', `a = ["b"] "${escaped} [\nc = "d"\n`)).toBeNull();
    const feed = '<add key="feed" value="https://f.example/" />';
    const unclosed = `${'<add\t'.repeat(20_000)}${'key=""'.repeat(20_000)}`;
    const nuget = (sources: string) => `<configuration><packageSources>${sources}</packageSources></configuration>`;
    // The first `<add` runs to the first `>`: one tag, its last key the password's, so it goes whole.
    expect(stripCredentials('nuget', nuget(`${unclosed}<add key="ClearTextPassword" value="S1" />${feed}`))).toBe(
      `<?xml version="1.0" encoding="UTF-8"?>\n<configuration>\n${nuget(feed).slice(15, -16)}\n</configuration>\n`,
    );
    expect(stripCredentials('nuget', nuget(`${unclosed}x/>${feed}`))).toContain(`${unclosed}x/>${feed}`);
  });

  it('reads runs of unclosed URLs, comments, tags and quoted keys as short ones, with the same result', () => {
    // Each of these regexes once read on to the end of the text from every place in such a run
    // (quadratic: 3 to 27 s on 256 KiB). Checked by result: a blocked event loop fires no timeout.
    const schemes = 'a.'.repeat(100_000);
    expect(stripCredentials('npmrc', `a=${schemes}\n`)).toBe(`a=${schemes}\n`);
    const urls = 'a://a:'.repeat(40_000);
    expect(stripCredentials('npmrc', `a=${urls}\n`)).toBe(`a=${urls}\n`);
    // The first `a://` has a password running to the only `@`: everything before it goes.
    expect(stripCredentials('npmrc', `a=${urls}https://u:S1@h.example/\n`)).toBe('a=a://h.example/\n');
    expect(stripCredentials('json', JSON.stringify({ a: `${urls}@h` }))).toBe('{\n  "a": "a://h"\n}\n');

    const maven = (children: string) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<settings>\n${children}\n</settings>\n`;
    const proxy = '<proxies><proxy><host>p.example</host><password>S1</password></proxy></proxies>';
    const kept = '<proxies><proxy><host>p.example</host></proxy></proxies>';
    const opens = '<!--'.repeat(60_000);
    // Comments that never close stay; one closed after the run goes whole, with the proxy inside it.
    expect(stripCredentials('maven', `<settings>${opens}${proxy}</settings>`)).toBe(maven(kept));
    expect(stripCredentials('maven', `<settings><!--${opens}${proxy}--></settings>`)).toBe(maven(''));
    // An element runs from its first opening tag to the first closing one after it.
    const unclosed = '<proxies>'.repeat(30_000);
    expect(stripCredentials('maven', `<settings>${unclosed}${proxy}</settings>`)).toBe(maven(`${unclosed}${kept}`));
    expect(stripCredentials('maven', `<settings>${'<proxies\t'.repeat(30_000)}`)).toBe(maven(''));
    expect(stripCredentials('maven', '<settings\t'.repeat(30_000))).toBeNull();
    const passwords = '<password>'.repeat(30_000);
    expect(stripCredentials('maven', `<settings><proxies>${passwords}S1</PASSWORD ></proxies></settings>`)).toBe(
      maven('<proxies></proxies>'),
    );
    // Password elements that never end: where the secret ends cannot be told, so the file is hidden.
    expect(stripCredentials('maven', `<settings><proxies>${passwords}</proxies></settings>`)).toBeNull();

    const quotes = "'".repeat(200_000);
    expect(stripCredentials('ini', `[global]\na${quotes}x = 1\ntoken${quotes}x = S1\n`)).toBe(
      `[global]\na${quotes}x = 1\n`,
    );
    const npmKey = `"//h.example/:a${'"'.repeat(200_000)}x"=S1\n`;
    expect(stripCredentials('npmrc', `"a${'"'.repeat(200_000)}x"=1\n${npmKey}`)).toBe(`"a${'"'.repeat(200_000)}x"=1\n`);
  });

  it('reads long URL queries and Gemfury hosts as short ones, with the same result', () => {
    // Each parameter and each host is read once: a scan that looked for a value's end, or a host's,
    // from every `?`, `&` or `://` in such a run would be quadratic.
    const marks = '?a'.repeat(100_000);
    expect(stripCredentials('npmrc', `a=https://h.example/${marks}\n`)).toBe(`a=https://h.example/${marks}\n`);
    const params = 'a=1&'.repeat(50_000);
    expect(stripCredentials('npmrc', `a=https://h.example/?${params}token=S1\n`)).toBe(
      `a=https://h.example/?${params.slice(0, -1)}\n`,
    );
    const tokens = '&token='.repeat(50_000);
    expect(stripCredentials('npmrc', `a=https://h.example/?x=1${tokens}\n`)).toBe('a=https://h.example/?x=1\n');
    const value = `${'?'.repeat(100_000)}${'='.repeat(100_000)}`;
    expect(stripCredentials('npmrc', `a=https://h.example/?token=${value}&b=1\n`)).toBe('a=https://h.example/?b=1\n');
    const host = 'a.'.repeat(100_000);
    expect(stripCredentials('npmrc', `a=https://${host}fury.io/S1/x\n`)).toBe(`a=https://${host}fury.io/x\n`);
    const seps = 'x.fury.io://'.repeat(40_000);
    expect(stripCredentials('npmrc', `a=${seps}\n`)).toBe(`a=${seps}\n`);
  });

  it('reads an element tag as a regex would: a prefix of a longer name, self-closing, any case', () => {
    const nuget = (children: string) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<configuration>\n${children}\n</configuration>\n`;
    // `<config` is not `<configuration>`; `<config/>` and `<config />` are elements.
    expect(stripCredentials('nuget', '<configuration><configx/><config/><config /></configuration>')).toBe(
      nuget('<config/>\n<config />'),
    );
    // A self-closed tag with a later closing tag runs to it; a credential element goes in any case.
    expect(
      stripCredentials(
        'maven',
        '<settings><mirrors a/><mirror><Username>u</USERNAME\n></mirror></mirrors ></settings>',
      ),
    ).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<settings>\n<mirrors a/><mirror></mirror></mirrors >\n</settings>\n',
    );
  });

  const xml = (root: string, children: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<${root}>\n${children}\n</${root}>\n`;

  it('drops a Maven profile property named as a credential, and keeps the others', () => {
    // Maven's GPG plugin and Sonar's scanner read their secrets from a profile's properties.
    const profile = (properties: string) =>
      `<profiles><profile><id>release</id><properties>${properties}</properties></profile></profiles>`;
    const kept = '<gpg.keyname>ABC123</gpg.keyname><maven.compiler.source>17</maven.compiler.source>';
    const secrets =
      '<gpg.passphrase>S1</gpg.passphrase><sonar.token>S2</sonar.token><env.NEXUS_PASSWORD>S3</env.NEXUS_PASSWORD>' +
      '<deploy.API_KEY>S4</deploy.API_KEY><oauth.client-secret >S5</oauth.client-secret>' +
      '<github.accessToken attr="x">S6</github.accessToken><sign.passphrase/><sonar.login>S7</sonar.login>';
    expect(stripCredentials('maven', `<settings>${profile(`${secrets}${kept}`)}</settings>`)).toBe(
      xml('settings', profile(kept)),
    );
  });

  it('drops a NuGet setting whose key or attribute names a credential, however its tag is written', () => {
    // NuGet's settings are `<add key value/>`, in either quote, closed by `/>` or `</add>`.
    const proxy = '<add key="http_proxy" value="http://proxy.example.com:8080" />';
    const source = '<add key="acme" value="https://nuget.example.com/v3/index.json" />';
    const config =
      `<config>${proxy}<add key='http_proxy.password' value='S1' />` +
      '<add key="http_proxy.user" value="S2"></add><add value="S3" key="ClearTextPassword" /></config>' +
      `<packageSources>${source}<add key="b" value="https://b.example.com/" apiKey="S4" /></packageSources>`;
    expect(stripCredentials('nuget', `<configuration>${config}</configuration>`)).toBe(
      xml('configuration', `<config>${proxy}</config>\n<packageSources>${source}</packageSources>`),
    );
  });

  it('drops a JVM flag naming a credential from the Gradle settings it keeps', () => {
    // Gradle hands `org.gradle.jvmargs` to its JVM: a trust store's password may be among them.
    const jvm = 'org.gradle.jvmargs=-Xmx2g -Djavax.net.ssl.trustStorePassword=S1 -Dfile.encoding=UTF-8';
    expect(stripCredentials('properties', `${jvm} \\\n  "-Dsonar.token=S2" -Dx=1\n`)).toBe(
      'org.gradle.jvmargs=-Xmx2g  -Dfile.encoding=UTF-8 \\\n   -Dx=1\n',
    );
  });

  it('drops a quoted JVM flag naming a credential whole, on one line or continued', () => {
    // Gradle splits `org.gradle.jvmargs` at blanks outside quotes: `"a b"` is one value.
    const jvm = (args: string) => stripCredentials('properties', `org.gradle.jvmargs=-Xmx2g ${args}\n`);
    expect(jvm('-Dx.password="S1 S2" -Dother=1')).toBe('org.gradle.jvmargs=-Xmx2g  -Dother=1\n');
    expect(jvm("-Dx.token='S1 S2' '-Dkept=a b'")).toBe("org.gradle.jvmargs=-Xmx2g  '-Dkept=a b'\n");
    // A `\` at a line's end joins the next line, its leading blanks dropped, into the same value.
    expect(jvm('"-Dx.password=S1 \\\n  S2" -Dother=1')).toBe('org.gradle.jvmargs=-Xmx2g \\\n   -Dother=1\n');
    expect(jvm('-Dx.password=\\\n  S1 -Dother=1')).toBe('org.gradle.jvmargs=-Xmx2g \\\n   -Dother=1\n');
    // A properties escape is what the JVM gets: `\t` and `\u0020` part flags, `\u0070` is a `p`.
    expect(jvm('-Da=x\\t-Dx.password=S1 -Dx.\\u0070assword=S2')).toBe('org.gradle.jvmargs=-Xmx2g -Da=x\\t \n');
    // An escaped `\` at a line's end continues nothing: the next line is a key of its own.
    expect(stripCredentials('properties', 'systemProp.a=x\\\\\nsigning.password=S1\n')).toBe('systemProp.a=x\\\\\n');
    // Nor does a comment's: the line after it is read as a setting.
    expect(stripCredentials('properties', '# a note \\\norg.gradle.caching=true\n')).toBe('org.gradle.caching=true\n');
  });

  it('takes a token out of a URL’s query, keeping its other parameters', () => {
    const npmrc =
      'registry=https://npm.example.com/?access_token=S1\n' +
      '@a:registry=https://example.jfrog.io/artifactory/api/npm/npm/?apikey=S2&scope=a\n' +
      '@b:registry=https://b.example.com/p?v=1&sig=S3&X-Amz-Signature=S4&X-Amz-Credential=AKIA%2FS5' +
      '&X-Amz-Security-Token=S6&w=2#top\n' +
      '@c:registry=https://c.example.com/?%74oken=S7&url=https://d.example.com/?auth=S8&timeout=5\n';
    expect(stripCredentials('npmrc', npmrc)).toBe(
      'registry=https://npm.example.com/\n@a:registry=https://example.jfrog.io/artifactory/api/npm/npm/?scope=a\n' +
        '@b:registry=https://b.example.com/p?v=1&w=2#top\n' +
        '@c:registry=https://c.example.com/?url=https://d.example.com/?timeout=5\n',
    );
    const pip =
      '[global]\nindex-url = https://pypi.example.com/simple/?token=S1\nextra-index-url =\n' +
      '    https://x.example.com/simple?key=S2\n';
    expect(stripCredentials('ini', pip)).toBe(
      '[global]\nindex-url = https://pypi.example.com/simple/\nextra-index-url =\n    https://x.example.com/simple\n',
    );
    const nuget =
      '<configuration><packageSources><add key="a" ' +
      'value="https://n.example.com/index.json?v=3&amp;api_key=S1&amp;password=S2" /></packageSources></configuration>';
    expect(stripCredentials('nuget', nuget)).toContain('value="https://n.example.com/index.json?v=3"');
    expect(stripCredentials('json', '{"repositories":[{"url":"https://r.example.com/?secret=S1"}]}')).toContain(
      '"url": "https://r.example.com/"',
    );
  });

  it('takes a Gemfury token out of its URL’s path, and no path of another host', () => {
    // Gemfury's push-free URLs put the account's token first: `https://pypi.fury.io/<token>/<account>/`.
    const npmrc =
      'registry=https://npm.fury.io/S1TOKEN/\n@a:registry=https://npm-proxy.FURY.io:443/S2TOKEN/acme/\n' +
      '@b:registry=https://npm.example.com/S3KEPT/\n';
    expect(stripCredentials('npmrc', npmrc)).toBe(
      'registry=https://npm.fury.io/\n@a:registry=https://npm-proxy.FURY.io:443/acme/\n' +
        '@b:registry=https://npm.example.com/S3KEPT/\n',
    );
    expect(stripCredentials('ini', '[global]\nextra-index-url = https://pypi.fury.io/S5TOKEN/acme/\n')).toBe(
      '[global]\nextra-index-url = https://pypi.fury.io/acme/\n',
    );
    expect(stripCredentials('toml', 'url = "https://ci:S1@pypi.fury.io/S2"\n')).toBe('url = "https://pypi.fury.io/"\n');
  });

  it('drops a TOML table named as a credential with its keys, and a dotted key with such a part', () => {
    // Poetry keeps a PyPI token as `pypi-token.<repository>` when no keyring is there.
    const poetry =
      '[repositories.acme]\nurl = "https://p.example.com/simple"\n[pypi-token]\npypi = "S1"\n' +
      '[http-basic.acme]\nusername = "u"\npassword = "S2"\n[installer]\npypi-token.acme = "S3"\nmax-workers = 4\n';
    expect(stripCredentials('toml', poetry)).toBe(
      '[repositories.acme]\nurl = "https://p.example.com/simple"\n[installer]\nmax-workers = 4\n',
    );
  });

  it('takes a Conda token out of a URL it ends', () => {
    const condarc = 'channel_alias: https://conda.example.com/t/S1\nchannels:\n  - "https://c.example.com/t/S2"\n';
    expect(stripCredentials('yaml', condarc)).toBe(
      'channel_alias: https://conda.example.com\nchannels:\n  - "https://c.example.com"\n',
    );
  });

  it('is hidden when a credential element in a block that stays has no end', () => {
    const settings = (proxies: string) => `<settings><proxies>${proxies}</proxies></settings>`;
    expect(stripCredentials('maven', settings('<proxy><password>S1</proxy>'))).toBeNull();
    expect(stripCredentials('maven', settings('<proxy><a.token><a.token>x</a.token>S1</a.token></proxy>'))).toBeNull();
    expect(stripCredentials('maven', settings('<proxy><a.token>S1</A.TOKEN></proxy>'))).toBeNull();
    expect(stripCredentials('nuget', `<configuration><config><add key="ApiKey" value="S1></config>`)).toBeNull();
  });

  it('reads a long run of unclosed credential tags and quotes in a block that stays as a short one', () => {
    // Each tag is read once: a scan that looked for each one's end from the start would be quadratic.
    const tags = '<a.token '.repeat(40_000);
    expect(stripCredentials('maven', `<settings><profiles>${tags}</profiles></settings>`)).toBeNull();
    // The quotes pair up across the `<add`s: all are one tag, to `</config>`'s `>`; one more never ends.
    const config = (adds: string) => `<configuration><config>${adds}</config></configuration>`;
    const quotes = '<add value="'.repeat(40_000);
    expect(stripCredentials('nuget', config(quotes))).toContain(config(quotes).slice(15, -16));
    expect(stripCredentials('nuget', config(`${quotes}<add value="`))).toBeNull();
    const opens = '<a.token>'.repeat(40_000);
    expect(stripCredentials('maven', `<settings><profiles>${opens}</profiles></settings>`)).toBeNull();
  });

  it('is not shown at all when it cannot be read as its format', () => {
    expect(stripCredentials('json', '{ "token": ')).toBeNull();
    expect(stripCredentials('toml', 'x = """\nS1\n"""\n')).toBeNull();
    expect(stripCredentials('yaml', 'key: |\n  S1\n')).toBeNull();
    expect(stripCredentials('maven', '<!DOCTYPE x [<!ENTITY e "S1">]><settings>&e;</settings>')).toBeNull();
  });
});

describe('a tool that fails naming a hidden file', () => {
  it('is told why and what to pass instead, as a withheld sudo is', () => {
    const sbt = withheldBySandbox(
      '[error] java.io.FileNotFoundException: /home/runner/.sbt/.credentials (No such file or directory)\n',
      {},
    );
    expect(sbt).toContain('`.sbt/.credentials` (sbt and Ivy) is hidden here');
    expect(sbt).toContain('`SBT_CREDENTIALS`');
    expect(sbt).toContain('`verify-env`');
    const gradle = withheldBySandbox("Could not read script '/home/runner/.gradle/init.d/mirror.gradle'", {});
    expect(gradle).toContain('`.gradle/init.d` (Gradle) is hidden here');
    expect(gradle).toContain('ORG_GRADLE_PROJECT_');
    expect(withheldBySandbox('cat: /home/runner/.cache/huggingface/token: No such file', {})).toContain('HF_TOKEN');
  });

  it('is not told anything when the output names no hidden file', () => {
    expect(withheldBySandbox('npm ERR! 404 Not Found - GET https://registry.npmjs.org/x', {})).toBeNull();
    // The stripped copy of ~/.npmrc is shown, not hidden; a credential's name inside a word is no path.
    expect(withheldBySandbox('reading /home/runner/.npmrc', {})).toBeNull();
    expect(withheldBySandbox('wrote my.netrc.bak', {})).toBeNull();
  });
});
