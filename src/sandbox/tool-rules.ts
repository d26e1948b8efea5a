// What the runner's HOME shows a call, per tool. A tool's folder holds its toolchain and caches
// (shown), the few settings it needs to run at all (shown, each listed here), its registry
// configuration (a copy stripped of credentials, or hidden with what to pass instead: a registry
// silently dropped would send a private package's name to the public registry), and its
// credentials (never, not even their names). A tool's folder whose other entries are `hidden` shows
// only what is listed; an installer's tree or a cache (`shown`) shows all but what is listed.
// Paths are below HOME, at the tool's default place; a folder a variable moves gets the same rules
// (home-view.ts). `*` stands for any characters within one name; a pattern without `/` is a name at
// any depth. Every file a call may not read (0600, 0640) stays hidden too, whatever its class.
import type { ToolchainFolder } from '../domain/toolchain-variables.js';
import type { StripFormat } from './strip-credentials.js';

type ViewClass = 'toolchain' | 'cache' | 'settings' | 'registry' | 'credential';

interface ViewEntry {
  path: string;
  class: ViewClass;
  /** registry: how its copy is stripped; without one it is hidden, with `pass` in the log. */
  strip?: StripFormat;
  /** registry and credential: what a workflow passes through `verify-env` instead. */
  pass?: string;
}

interface ToolFolder {
  path: string;
  /** What the folder holds besides its listed entries. */
  others: 'shown' | 'hidden';
}

interface ToolRule {
  tool: string;
  /** The tool's documentation of where it keeps these files. */
  docs: string[];
  folders: ToolFolder[];
  entries: ViewEntry[];
}

const NPM_PASS = 'the registry as `NPM_CONFIG_REGISTRY` (`npm_config_@scope:registry` for a scope)';
const PIP_PASS = 'the index as `PIP_INDEX_URL` (with no password in it: then it reaches every call by itself)';
const GRADLE_PASS = 'the repository URL as a Gradle property (`ORG_GRADLE_PROJECT_<name>`)';
const CRED = (pass: string) => ({ class: 'credential' as const, pass });

const TOOL_RULES: readonly ToolRule[] = [
  {
    tool: 'any tool',
    docs: ['netrc(5) (curl, Go, pip, Poetry); git-credential-store(1); the dotenv convention'],
    folders: [],
    entries: [
      { path: '.netrc', ...CRED('a token the command needs, from a secret') },
      { path: '_netrc', ...CRED('a token the command needs, from a secret') },
      { path: '.git-credentials', ...CRED('a token the command needs, from a secret') },
      { path: '.env*', ...CRED('the variables the command needs') },
      { path: '.ssh', ...CRED('what the command needs, from a secret') },
      { path: '.gnupg', ...CRED('what the command needs, from a secret') },
      { path: '.vault-token', ...CRED('a token the command needs, from a secret') },
      { path: '.aws', ...CRED('the cloud credentials the command needs, from a secret') },
      { path: '.azure', ...CRED('the cloud credentials the command needs, from a secret') },
      { path: '.kube', ...CRED('what the command needs, from a secret') },
      { path: '.docker/config.json', ...CRED('the registry login the command needs, from a secret') },
      { path: '.config/gcloud', ...CRED('the cloud credentials the command needs, from a secret') },
      { path: '.config/gh', ...CRED('a token the command needs, from a secret') },
      { path: '.terraform.d/credentials*', ...CRED('a token the command needs, from a secret') },
    ],
  },
  {
    tool: 'Cargo',
    docs: [
      'https://doc.rust-lang.org/cargo/guide/cargo-home.html',
      'https://doc.rust-lang.org/cargo/reference/config.html#credentials',
    ],
    folders: [{ path: '.cargo', others: 'hidden' }],
    entries: [
      { path: '.cargo/bin', class: 'toolchain' },
      { path: '.cargo/registry', class: 'cache' },
      { path: '.cargo/git', class: 'cache' },
      { path: '.cargo/.package-cache*', class: 'cache' },
      { path: '.cargo/.global-cache', class: 'cache' },
      { path: '.cargo/env*', class: 'settings' },
      { path: '.cargo/.crates.toml', class: 'settings' },
      { path: '.cargo/.crates2.json', class: 'settings' },
      {
        path: '.cargo/config.toml',
        class: 'registry',
        strip: 'toml',
        pass: 'the registry as `CARGO_REGISTRIES_<NAME>_INDEX`',
      },
      {
        path: '.cargo/config',
        class: 'registry',
        strip: 'toml',
        pass: 'the registry as `CARGO_REGISTRIES_<NAME>_INDEX`',
      },
      { path: '.cargo/credentials*', ...CRED('`CARGO_REGISTRIES_<NAME>_TOKEN`, from a secret') },
    ],
  },
  {
    tool: 'rustup',
    docs: ['https://rust-lang.github.io/rustup/installation/index.html#choosing-where-to-install'],
    folders: [{ path: '.rustup', others: 'hidden' }],
    entries: [
      { path: '.rustup/toolchains', class: 'toolchain' },
      { path: '.rustup/update-hashes', class: 'toolchain' },
      { path: '.rustup/downloads', class: 'cache' },
      { path: '.rustup/tmp', class: 'cache' },
      { path: '.rustup/settings.toml', class: 'settings' },
    ],
  },
  {
    tool: 'Go',
    docs: ['https://go.dev/ref/mod#module-cache, `go help environment` (`go env -w` writes os.UserConfigDir()/go/env)'],
    folders: [{ path: 'go', others: 'hidden' }],
    entries: [
      { path: 'go/bin', class: 'toolchain' },
      { path: 'go/pkg', class: 'cache' },
      { path: '.config/go/env', class: 'registry', strip: 'env', pass: 'the proxy as `GOPROXY`' },
    ],
  },
  {
    tool: 'Maven',
    docs: ['https://maven.apache.org/settings.html', 'https://maven.apache.org/guides/mini/guide-encryption.html'],
    folders: [{ path: '.m2', others: 'hidden' }],
    entries: [
      { path: '.m2/repository', class: 'cache' },
      { path: '.m2/wrapper', class: 'toolchain' },
      { path: '.m2/toolchains.xml', class: 'settings' },
      {
        path: '.m2/settings.xml',
        class: 'registry',
        strip: 'maven',
        pass: 'the mirror as `-Dmaven.repo.remote` or a project `.mvn/maven.config`',
      },
      { path: '.m2/settings-security.xml', ...CRED('a server password the build needs, from a secret') },
    ],
  },
  {
    tool: 'Gradle',
    docs: [
      'https://docs.gradle.org/current/userguide/directory_layout.html#dir:gradle_user_home',
      'https://docs.gradle.org/current/userguide/init_scripts.html',
    ],
    folders: [{ path: '.gradle', others: 'hidden' }],
    entries: [
      { path: '.gradle/caches', class: 'cache' },
      { path: '.gradle/native', class: 'cache' },
      { path: '.gradle/wrapper', class: 'settings' },
      { path: '.gradle/jdks', class: 'toolchain' },
      { path: '.gradle/gradle.properties', class: 'registry', strip: 'properties', pass: GRADLE_PASS },
      { path: '.gradle/init.d', class: 'registry', pass: GRADLE_PASS },
      { path: '.gradle/init.gradle*', class: 'registry', pass: GRADLE_PASS },
    ],
  },
  {
    tool: 'sbt and Ivy',
    docs: [
      'https://www.scala-sbt.org/1.x/docs/Publishing.html#Credentials',
      'https://www.scala-sbt.org/1.x/docs/Proxy-Repositories.html',
    ],
    folders: [
      { path: '.ivy2', others: 'hidden' },
      { path: '.sbt', others: 'hidden' },
    ],
    entries: [
      { path: '.ivy2/cache', class: 'cache' },
      { path: '.ivy2/local', class: 'cache' },
      { path: '.ivy2/.credentials', ...CRED('`SBT_CREDENTIALS` naming a file the workflow writes from a secret') },
      { path: '.sbt/boot', class: 'toolchain' },
      { path: '.sbt/launchers', class: 'toolchain' },
      { path: '.sbt/*/zinc', class: 'cache' },
      {
        path: '.sbt/repositories',
        class: 'registry',
        strip: 'urls',
        pass: 'the repositories as `-Dsbt.repository.config` in `SBT_OPTS`',
      },
      { path: '.sbt/*/*.sbt', class: 'registry', pass: 'the resolver as an sbt property in `SBT_OPTS`' },
      { path: '.sbt/*/plugins', class: 'registry', pass: 'the resolver as an sbt property in `SBT_OPTS`' },
      { path: '.sbt/.credentials', ...CRED('`SBT_CREDENTIALS` naming a file the workflow writes from a secret') },
    ],
  },
  {
    tool: 'npm',
    docs: [
      'https://docs.npmjs.com/cli/configuring-npm/npmrc (auth keys are scoped to a registry: `//host/:_authToken`)',
    ],
    folders: [{ path: '.npm', others: 'hidden' }],
    entries: [
      { path: '.npm/_cacache', class: 'cache' },
      { path: '.npm/_npx', class: 'cache' },
      { path: '.npmrc', class: 'registry', strip: 'npmrc', pass: NPM_PASS },
      // A Node installation's global configuration (`$PREFIX/etc/npmrc`, nvm's among them).
      { path: 'npmrc', class: 'registry', strip: 'npmrc', pass: NPM_PASS },
    ],
  },
  {
    tool: 'Yarn',
    docs: [
      'https://yarnpkg.com/configuration/yarnrc (npmAuthToken, npmAuthIdent)',
      'https://classic.yarnpkg.com/en/docs/yarnrc',
    ],
    folders: [{ path: '.yarn', others: 'shown' }],
    entries: [
      { path: '.yarnrc', class: 'registry', strip: 'yarnrc', pass: 'the registry as `YARN_REGISTRY`' },
      { path: '.yarnrc.yml', class: 'registry', strip: 'yaml', pass: 'the registry as `YARN_NPM_REGISTRY_SERVER`' },
    ],
  },
  {
    tool: 'pnpm',
    docs: ['https://pnpm.io/npmrc (pnpm reads npm’s .npmrc)', 'https://pnpm.io/cli/store'],
    folders: [
      { path: '.pnpm-store', others: 'shown' },
      { path: '.local/share/pnpm', others: 'shown' },
    ],
    entries: [],
  },
  {
    tool: 'nvm',
    docs: ['https://github.com/nvm-sh/nvm#readme (NVM_DIR, `nvm alias default`)'],
    folders: [{ path: '.nvm', others: 'shown' }],
    entries: [{ path: '.nvm/alias', class: 'settings' }],
  },
  {
    tool: 'pip and Python user installs',
    docs: [
      'https://pip.pypa.io/en/stable/topics/configuration/#location',
      'https://packaging.python.org/en/latest/specifications/pypirc/',
    ],
    folders: [{ path: '.local', others: 'hidden' }],
    entries: [
      { path: '.local/bin', class: 'toolchain' },
      { path: '.local/lib', class: 'toolchain' },
      { path: '.local/include', class: 'toolchain' },
      { path: '.local/share/virtualenvs', class: 'toolchain' },
      // virtualenv's app-data: the seed wheels it copies into each new environment.
      { path: '.local/share/virtualenv', class: 'cache' },
      { path: '.local/share/uv', class: 'toolchain' },
      { path: '.local/share/NuGet', class: 'cache' },
      { path: '.config/pip/pip.conf', class: 'registry', strip: 'ini', pass: PIP_PASS },
      { path: '.pip/pip.conf', class: 'registry', strip: 'ini', pass: PIP_PASS },
      { path: '.pypirc', ...CRED('`TWINE_PASSWORD`, from a secret') },
      { path: '.local/share/keyrings', ...CRED('the password the command needs, from a secret') },
      { path: '.local/share/python_keyring', ...CRED('the password the command needs, from a secret') },
    ],
  },
  {
    tool: 'pipx',
    docs: ['https://pipx.pypa.io/stable/installation/ (PIPX_HOME: ~/.local/share/pipx, before 1.2 ~/.local/pipx)'],
    folders: [
      { path: '.local/share/pipx', others: 'shown' },
      { path: '.local/pipx', others: 'shown' },
    ],
    entries: [],
  },
  {
    tool: 'Poetry',
    docs: [
      'https://python-poetry.org/docs/#installation (POETRY_HOME)',
      'https://python-poetry.org/docs/repositories/#configuring-credentials',
    ],
    folders: [{ path: '.local/share/pypoetry', others: 'shown' }],
    entries: [
      { path: '.local/share/pypoetry/auth.toml', ...CRED('`POETRY_HTTP_BASIC_<NAME>_PASSWORD`, from a secret') },
      {
        path: '.config/pypoetry/config.toml',
        class: 'registry',
        strip: 'toml',
        pass: 'the source as `POETRY_REPOSITORIES_<NAME>_URL`',
      },
      { path: '.config/pypoetry/auth.toml', ...CRED('`POETRY_HTTP_BASIC_<NAME>_PASSWORD`, from a secret') },
    ],
  },
  {
    tool: 'pyenv, rbenv and SDKMAN!',
    docs: [
      'https://github.com/pyenv/pyenv#readme (`pyenv global` writes $PYENV_ROOT/version)',
      'https://github.com/rbenv/rbenv#readme',
      'https://sdkman.io/usage#config',
    ],
    folders: [
      { path: '.pyenv', others: 'shown' },
      { path: '.rbenv', others: 'shown' },
      { path: '.sdkman', others: 'shown' },
    ],
    entries: [
      { path: '.pyenv/version', class: 'settings' },
      { path: '.rbenv/version', class: 'settings' },
      { path: '.sdkman/etc/config', class: 'settings' },
      { path: '.sdkman/candidates', class: 'toolchain' },
    ],
  },
  {
    tool: 'RubyGems',
    docs: [
      'https://guides.rubygems.org/command-reference/#gem-environment (~/.gemrc)',
      'https://guides.rubygems.org/api-key-scopes/ (~/.gem/credentials)',
    ],
    folders: [{ path: '.gem', others: 'hidden' }],
    entries: [
      { path: '.gem/ruby', class: 'toolchain' },
      { path: '.gem/specs', class: 'cache' },
      {
        path: '.gemrc',
        class: 'registry',
        strip: 'yaml',
        pass: 'the source in the Gemfile, its password as `BUNDLE_<HOST>`',
      },
      { path: '.gem/credentials', ...CRED('`GEM_HOST_API_KEY`, from a secret') },
      { path: '.local/share/gem', class: 'toolchain' },
    ],
  },
  {
    tool: 'Bundler',
    docs: ['https://bundler.io/man/bundle-config.1.html (credentials for gem sources: `BUNDLE_GEMS__EXAMPLE__COM`)'],
    folders: [{ path: '.bundle', others: 'hidden' }],
    entries: [
      { path: '.bundle/cache', class: 'cache' },
      { path: '.bundle/plugin', class: 'toolchain' },
      {
        path: '.bundle/config',
        class: 'registry',
        strip: 'bundler',
        pass: 'a gem server’s password as `BUNDLE_<HOST>`, from a secret',
      },
    ],
  },
  {
    tool: 'Composer',
    docs: [
      'https://getcomposer.org/doc/03-cli.md#composer-home',
      'https://getcomposer.org/doc/articles/authentication-for-private-packages.md',
    ],
    folders: [
      { path: '.composer', others: 'hidden' },
      { path: '.config/composer', others: 'hidden' },
    ],
    entries: [
      { path: '.composer/vendor', class: 'toolchain' },
      { path: '.composer/cache', class: 'cache' },
      { path: '.composer/config.json', class: 'registry', strip: 'json', pass: '`COMPOSER_AUTH`, from a secret' },
      { path: '.composer/auth.json', ...CRED('`COMPOSER_AUTH`, from a secret') },
      { path: '.config/composer/vendor', class: 'toolchain' },
      {
        path: '.config/composer/config.json',
        class: 'registry',
        strip: 'json',
        pass: '`COMPOSER_AUTH`, from a secret',
      },
      { path: '.config/composer/auth.json', ...CRED('`COMPOSER_AUTH`, from a secret') },
    ],
  },
  {
    tool: 'NuGet and .NET',
    docs: [
      'https://learn.microsoft.com/nuget/consume-packages/configuring-nuget-behavior#config-file-locations-and-uses',
      'https://learn.microsoft.com/nuget/reference/nuget-config-file#packagesourcecredentials',
      'https://learn.microsoft.com/dotnet/standard/security/cross-platform-cryptography#x509store',
    ],
    folders: [
      { path: '.nuget', others: 'hidden' },
      { path: '.dotnet', others: 'shown' },
    ],
    entries: [
      { path: '.nuget/packages', class: 'cache' },
      // .NET's X509Store on Linux: the user's certificates with their private keys.
      { path: '.dotnet/corefx', ...CRED('what the command needs, from a secret') },
      { path: '.nuget/plugins', class: 'toolchain' },
      {
        path: '.nuget/NuGet/NuGet.Config',
        class: 'registry',
        strip: 'nuget',
        pass: 'a source’s password as `NuGetPackageSourceCredentials_<name>`, from a secret',
      },
    ],
  },
  {
    tool: 'pub (Dart, Flutter)',
    docs: ['https://dart.dev/tools/pub/environment-variables (PUB_CACHE)', 'https://dart.dev/tools/pub/cmd/pub-token'],
    folders: [{ path: '.pub-cache', others: 'hidden' }],
    entries: [
      { path: '.pub-cache/bin', class: 'toolchain' },
      { path: '.pub-cache/global_packages', class: 'toolchain' },
      { path: '.pub-cache/hosted', class: 'cache' },
      { path: '.pub-cache/hosted-hashes', class: 'cache' },
      { path: '.pub-cache/git', class: 'cache' },
      {
        path: '.pub-cache/credentials.json',
        ...CRED('`PUB_TOKEN`-style variables named in `dart pub token add --env-var`'),
      },
      { path: '.config/dart/pub-credentials.json', ...CRED('`dart pub token add --env-var`, from a secret') },
      { path: '.config/dart/pub-tokens.json', ...CRED('`dart pub token add --env-var`, from a secret') },
    ],
  },
  {
    tool: 'Hugging Face',
    docs: [
      'https://huggingface.co/docs/huggingface_hub/package_reference/environment_variables (HF_HOME, HF_TOKEN_PATH)',
    ],
    folders: [{ path: '.cache/huggingface', others: 'shown' }],
    entries: [
      { path: '.cache/huggingface/token', ...CRED('`HF_TOKEN`, from a secret') },
      { path: '.cache/huggingface/stored_tokens', ...CRED('`HF_TOKEN`, from a secret') },
    ],
  },
  {
    tool: 'Conda',
    docs: [
      'https://docs.conda.io/projects/conda/en/latest/user-guide/configuration/use-condarc.html#searching-for-condarc',
    ],
    folders: [{ path: '.conda', others: 'hidden' }],
    entries: [
      { path: '.conda/pkgs', class: 'cache' },
      { path: '.conda/envs', class: 'toolchain' },
      { path: '.conda/environments.txt', class: 'settings' },
      { path: '.condarc', class: 'registry', strip: 'yaml', pass: 'the channel as `CONDA_CHANNELS`' },
      { path: '.conda/.condarc', class: 'registry', strip: 'yaml', pass: 'the channel as `CONDA_CHANNELS`' },
      { path: '.config/conda/.condarc', class: 'registry', strip: 'yaml', pass: 'the channel as `CONDA_CHANNELS`' },
    ],
  },
  {
    tool: 'Bun and Deno',
    docs: [
      'https://bun.sh/docs/runtime/bunfig (install.registry, scoped tokens)',
      'https://docs.deno.com/runtime/fundamentals/modules/#deno_dir',
    ],
    folders: [
      { path: '.bun', others: 'shown' },
      { path: '.deno', others: 'shown' },
    ],
    entries: [
      { path: '.bunfig.toml', class: 'registry', strip: 'toml', pass: 'the registry as `NPM_CONFIG_REGISTRY`' },
    ],
  },
  {
    tool: 'caches of every tool',
    docs: ['https://specifications.freedesktop.org/basedir-spec/latest/ (XDG_CACHE_HOME)'],
    folders: [{ path: '.cache', others: 'shown' }],
    entries: [],
  },
];

/** The folder below HOME a toolchain variable's tool keeps by default: the rules of its moved folder. */
export const DEFAULT_FOLDER: Readonly<Record<Exclude<ToolchainFolder, 'plain'>, string>> = {
  cargo: '.cargo',
  rustup: '.rustup',
  go: 'go',
  gradle: '.gradle',
  nvm: '.nvm',
  npm: '.npm',
  poetry: '.local/share/pypoetry',
  pipx: '.local/share/pipx',
  composer: '.composer',
  bundler: '.bundle',
  pub: '.pub-cache',
  huggingface: '.cache/huggingface',
  pyenv: '.pyenv',
  rbenv: '.rbenv',
  sdkman: '.sdkman',
};

/** What the view does with a path below HOME, at its default place. */
export type Verdict =
  | { class: ViewClass; entry?: ViewEntry }
  /** Inside a tool's folder that shows only what is listed, or outside every shown folder. */
  | { class: 'unlisted' }
  /** A folder between a tool's folder and an entry listed below it (`.sbt/1.0` for `.sbt/1.0/zinc`). */
  | { class: 'passage' };

const ENTRIES = TOOL_RULES.flatMap((r) => r.entries);
const FOLDERS = TOOL_RULES.flatMap((r) => r.folders);
const BARE = ENTRIES.filter((e) => !e.path.includes('/'));
const DEEP = ENTRIES.filter((e) => e.path.includes('/')).map((e) => e.path.split('/'));

/** Every tool folder below HOME the view shows (their listed entries decide what is in them). */
export const TOOL_FOLDERS: readonly string[] = FOLDERS.map((f) => f.path);

/** Registry files outside every tool folder (`.npmrc`, `.config/go/env`): shown as their stripped copy. */
export const REGISTRY_FILES: readonly string[] = ENTRIES.filter(
  (e) => e.class === 'registry' && e.path.includes('/') && !e.path.includes('*') && !inAny(e.path, TOOL_FOLDERS),
)
  .map((e) => e.path)
  .concat(
    ENTRIES.filter((e) => e.class === 'registry' && !e.path.includes('/') && e.path.startsWith('.')).map((e) => e.path),
  );

/**
 * The verdict on `rel` (below HOME, at its tool's default place). The deepest rule wins: an entry
 * naming the path or a folder above it, a bare name at any depth, then the nearest tool folder's
 * `others`; at one depth a credential before a registry file before anything shown. `shown` are
 * further folders that show all they hold (a workflow's `home-folders`, PATH folders, caches a
 * variable names).
 */
export function classify(rel: string, shown: readonly string[] = []): Verdict {
  const parts = rel.split('/');
  for (let depth = parts.length; depth >= 1; depth--) {
    const prefix = parts.slice(0, depth).join('/');
    const name = parts[depth - 1]!;
    const hits = ENTRIES.filter((e) => (e.path.includes('/') ? matches(e.path, prefix) : glob(e.path).test(name)));
    const best = hits.sort((a, b) => RANK[a.class] - RANK[b.class])[0];
    if (best) return { class: best.class, entry: best };
    const folder = FOLDERS.find((f) => f.path === prefix);
    if (folder) return depth === parts.length || folder.others === 'shown' ? { class: 'cache' } : { class: 'unlisted' };
    if (shown.includes(prefix)) return { class: 'cache' };
    if (depth === parts.length && ENTRIES.some((e) => leadsTo(prefix, e.path))) return { class: 'passage' };
  }
  return { class: 'unlisted' };
}

/** A bare name's verdict at any depth (`.netrc`, `.npmrc`), or null when no bare name matches. */
export function bareNameVerdict(name: string): Verdict | null {
  const best = BARE.filter((e) => glob(e.path).test(name)).sort((a, b) => RANK[a.class] - RANK[b.class])[0];
  return best ? { class: best.class, entry: best } : null;
}

/**
 * True when a rule names something strictly below `rel` (a path below HOME at its default place):
 * then what `rel` holds needs the full rules; else each entry below it has `rel`'s verdict unless
 * its own name is a bare name's (the walk of a large cache tests only that).
 */
export function rulesBelow(rel: string): boolean {
  const have = rel.split('/');
  const below = (want: string[]) => want.length > have.length && have.every((h, i) => glob(want[i]!).test(h));
  return DEEP.some(below) || FOLDERS.some((f) => below(f.path.split('/')));
}

/** `rel` is a folder above what `pattern` names, below a tool folder. */
function leadsTo(rel: string, pattern: string): boolean {
  const want = pattern.split('/');
  const have = rel.split('/');
  return want.length > have.length && have.every((h, i) => glob(want[i]!).test(h)) && inAny(rel, TOOL_FOLDERS);
}

const RANK: Record<ViewClass, number> = { credential: 0, registry: 1, settings: 2, toolchain: 3, cache: 4 };

function matches(pattern: string, rel: string): boolean {
  const want = pattern.split('/');
  const have = rel.split('/');
  return want.length === have.length && want.every((w, i) => glob(w).test(have[i]!));
}

const globs = new Map<string, RegExp>();
function glob(pattern: string): RegExp {
  let re = globs.get(pattern);
  if (!re) {
    re = new RegExp(
      `^${pattern
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*')}$`,
    );
    globs.set(pattern, re);
  }
  return re;
}

function inAny(rel: string, folders: readonly string[]): boolean {
  return folders.some((f) => rel === f || rel.startsWith(`${f}/`));
}

/** A file the view hides that a tool's output names, whose tool and what to pass instead. */
export interface HiddenFileNamed {
  path: string;
  tool: string;
  class: 'credential' | 'registry';
  pass: string;
}

/** Each hidden file's pattern as it shows in a tool's words: a path ending in it, or the bare name. */
const NAMED: readonly { re: RegExp; tool: string; entry: ViewEntry }[] = TOOL_RULES.flatMap((rule) =>
  rule.entries
    .filter((e) => e.class === 'credential' || (e.class === 'registry' && !e.strip))
    .map((entry) => {
      const body = entry.path
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join(`[^/\\s'"]*`);
      return { re: new RegExp(`(?:^|[/\\s'"\`~])(${body})(?=$|[/\\s'"\`:,;)])`, 'm'), tool: rule.tool, entry };
    }),
);

/** The first hidden file `output` names (`/home/runner/.sbt/.credentials does not exist`), or null. */
export function hiddenFileNamed(output: string): HiddenFileNamed | null {
  for (const { re, tool, entry } of NAMED) {
    const m = re.exec(output);
    if (m) return { path: m[1]!, tool, class: entry.class as 'credential' | 'registry', pass: entry.pass ?? '' };
  }
  return null;
}
