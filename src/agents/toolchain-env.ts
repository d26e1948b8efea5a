// The variables the `setup-*` actions and the runner images set so that a toolchain is found
// (JAVA_HOME, GOROOT, CARGO_HOME, …) reach every call that runs commands without the workflow
// naming them: a verify command that runs `cargo test` needs them as the step does. Exact names
// only, never prefixes: `ANDROID_*` would hand over signing passwords, `GO*` a GOPROXY token.
// A value that carries a credential (a URL with a user and password, as GOPROXY and
// PIP_INDEX_URL often hold) is withheld and named in the log; the workflow can still pass it on
// purpose through `verify-env` or `agent-env`.

const TOOLCHAIN_NAMES: ReadonlySet<string> = new Set([
  'JAVA_HOME',
  'GOROOT',
  'GOPATH',
  'GOMODCACHE',
  'GOCACHE',
  'GOFLAGS',
  'GOPROXY',
  'GOPRIVATE',
  'GONOSUMDB',
  'GONOPROXY',
  'GOTOOLCHAIN',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'pythonLocation',
  'Python_ROOT_DIR',
  'Python2_ROOT_DIR',
  'Python3_ROOT_DIR',
  'PIP_INDEX_URL',
  'PIP_EXTRA_INDEX_URL',
  'PIP_CACHE_DIR',
  'PKG_CONFIG_PATH',
  'LD_LIBRARY_PATH',
  'DOTNET_ROOT',
  'DOTNET_CLI_TELEMETRY_OPTOUT',
  'DOTNET_NOLOGO',
  'NUGET_PACKAGES',
  'ANDROID_HOME',
  'ANDROID_SDK_ROOT',
  'ANDROID_NDK',
  'ANDROID_NDK_HOME',
  'ANDROID_NDK_ROOT',
  'ANDROID_NDK_LATEST_HOME',
  'GRADLE_USER_HOME',
  'GRADLE_RO_DEP_CACHE',
  'MAVEN_OPTS',
  'M2_HOME',
  'PNPM_HOME',
  'NVM_DIR',
  'npm_config_cache',
  'PLAYWRIGHT_BROWSERS_PATH',
  'PYENV_ROOT',
  'RBENV_ROOT',
  'GEM_HOME',
  'GEM_PATH',
  'BUNDLE_PATH',
  'SDKMAN_DIR',
  'BUN_INSTALL',
  'DENO_DIR',
  'POETRY_HOME',
  'PIPX_HOME',
  'PIPX_BIN_DIR',
  'COMPOSER_HOME',
  'CONDA',
  'CHROMEWEBDRIVER',
  'CHROME_BIN',
  'GECKOWEBDRIVER',
  'EDGEWEBDRIVER',
  'SELENIUM_JAR_PATH',
  'VCPKG_INSTALLATION_ROOT',
  'SWIFT_PATH',
  'RUNNER_TOOL_CACHE',
  'AGENT_TOOLSDIRECTORY',
  'ImageOS',
  'ImageVersion',
]);

/** Exact-name families: every JDK the runner images install (JAVA_HOME_17_X64, JAVA_HOME_21_ARM64). */
const TOOLCHAIN_FAMILIES: readonly RegExp[] = [/^JAVA_HOME_\d+_(X64|ARM64)$/, /^GOROOT_\d+_\d+_(X64|ARM64)$/];

export function isToolchainVariable(name: string): boolean {
  return TOOLCHAIN_NAMES.has(name) || TOOLCHAIN_FAMILIES.some((re) => re.test(name));
}

/** A URL with a password (`scheme://user:password@host`), or a `password`/`token` query parameter. */
export function carriesCredential(value: string): boolean {
  return /[a-z][a-z0-9+.-]*:\/\/[^/\s@:]*:[^/\s@]+@/i.test(value) || /[?&](password|token|auth)=/i.test(value);
}

/** The toolchain variables of `env` withheld because their values carry a credential, sorted. */
export function withheldToolchainVariables(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => value !== undefined && isToolchainVariable(name) && carriesCredential(value))
    .map(([name]) => name)
    .sort();
}
