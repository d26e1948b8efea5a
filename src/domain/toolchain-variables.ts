// The one list of toolchain variables: what the `setup-*` actions and the runner images set so that
// a toolchain is found (JAVA_HOME, GOROOT, CARGO_HOME, …). The environment of every call that runs
// commands passes them by exact name (agents/toolchain-env.ts), and the runner's HOME as a call
// sees it (sandbox/home-view.ts) shows the folders they name, with the rules of the tool named
// here (sandbox/tool-rules.ts), wherever the variable moved that folder.

/** What a variable names when it names a folder: a tool's own folder, or a toolchain of no rules. */
export type ToolchainFolder =
  | 'cargo'
  | 'rustup'
  | 'go'
  | 'gradle'
  | 'nvm'
  | 'npm'
  | 'poetry'
  | 'pipx'
  | 'composer'
  | 'bundler'
  | 'pub'
  | 'huggingface'
  | 'pyenv'
  | 'rbenv'
  | 'sdkman'
  /** A cache or an installed toolchain: shown, with only the rules that hold in every folder. */
  | 'plain';

/** Exact names; a folder variable says whose rules its folder keeps. */
export const TOOLCHAIN_VARIABLES: Readonly<Record<string, ToolchainFolder | null>> = {
  JAVA_HOME: 'plain',
  GOROOT: null,
  GOPATH: 'go',
  GOMODCACHE: 'plain',
  GOCACHE: 'plain',
  GOFLAGS: null,
  GOPROXY: null,
  GOPRIVATE: null,
  GONOSUMDB: null,
  GONOPROXY: null,
  GOTOOLCHAIN: null,
  CARGO_HOME: 'cargo',
  RUSTUP_HOME: 'rustup',
  RUSTUP_TOOLCHAIN: null,
  pythonLocation: null,
  Python_ROOT_DIR: null,
  Python2_ROOT_DIR: null,
  Python3_ROOT_DIR: null,
  PIP_INDEX_URL: null,
  PIP_EXTRA_INDEX_URL: null,
  PIP_CACHE_DIR: 'plain',
  PKG_CONFIG_PATH: null,
  LD_LIBRARY_PATH: null,
  DOTNET_ROOT: 'plain',
  DOTNET_CLI_TELEMETRY_OPTOUT: null,
  DOTNET_NOLOGO: null,
  NUGET_PACKAGES: 'plain',
  ANDROID_HOME: 'plain',
  ANDROID_SDK_ROOT: 'plain',
  ANDROID_NDK: null,
  ANDROID_NDK_HOME: null,
  ANDROID_NDK_ROOT: null,
  ANDROID_NDK_LATEST_HOME: null,
  GRADLE_USER_HOME: 'gradle',
  GRADLE_RO_DEP_CACHE: null,
  MAVEN_OPTS: null,
  M2_HOME: null,
  PNPM_HOME: 'plain',
  NVM_DIR: 'nvm',
  npm_config_cache: 'npm',
  PLAYWRIGHT_BROWSERS_PATH: 'plain',
  PYENV_ROOT: 'pyenv',
  RBENV_ROOT: 'rbenv',
  GEM_HOME: 'plain',
  GEM_PATH: null,
  BUNDLE_PATH: null,
  BUNDLE_USER_HOME: 'bundler',
  SDKMAN_DIR: 'sdkman',
  BUN_INSTALL: 'plain',
  DENO_DIR: 'plain',
  POETRY_HOME: 'poetry',
  PIPX_HOME: 'pipx',
  PIPX_BIN_DIR: 'plain',
  COMPOSER_HOME: 'composer',
  PUB_CACHE: 'pub',
  HF_HOME: 'huggingface',
  CONDA: null,
  CHROMEWEBDRIVER: null,
  CHROME_BIN: null,
  GECKOWEBDRIVER: null,
  EDGEWEBDRIVER: null,
  SELENIUM_JAR_PATH: null,
  VCPKG_INSTALLATION_ROOT: null,
  SWIFT_PATH: null,
  RUNNER_TOOL_CACHE: null,
  AGENT_TOOLSDIRECTORY: null,
  ImageOS: null,
  ImageVersion: null,
};

/** Exact-name families: every JDK the runner images install (JAVA_HOME_17_X64, JAVA_HOME_21_ARM64). */
export const TOOLCHAIN_VARIABLE_FAMILIES: readonly RegExp[] = [
  /^JAVA_HOME_\d+_(X64|ARM64)$/,
  /^GOROOT_\d+_\d+_(X64|ARM64)$/,
];
