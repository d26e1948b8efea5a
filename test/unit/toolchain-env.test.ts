// Toolchain variables reach verify, hooks and agents by exact name (src/agents/toolchain-env.ts);
// a value carrying a credential does not, and no prefix lets a look-alike through.
import { describe, expect, it } from 'vitest';
import { agentEnv } from '../../src/agents/env.js';
import { commandAllowlist } from '../../src/agents/env-allowlist.js';
import { carriesCredential, withheldToolchainVariables } from '../../src/agents/toolchain-env.js';

const STEP = {
  PATH: '/usr/bin',
  JAVA_HOME: '/usr/lib/jvm/temurin-17',
  JAVA_HOME_17_X64: '/usr/lib/jvm/temurin-17',
  JAVA_HOME_21_ARM64: '/usr/lib/jvm/temurin-21',
  JAVA_HOME_EVIL: 'x',
  GOROOT: '/opt/hostedtoolcache/go/1.22.0/x64',
  GOPATH: '/home/runner/go',
  GOMODCACHE: '/home/runner/go/pkg/mod',
  GOCACHE: '/home/runner/.cache/go-build',
  GOFLAGS: '-mod=mod',
  CARGO_HOME: '/home/runner/.cargo',
  RUSTUP_HOME: '/home/runner/.rustup',
  pythonLocation: '/opt/hostedtoolcache/Python/3.12.1/x64',
  Python_ROOT_DIR: '/opt/hostedtoolcache/Python/3.12.1/x64',
  Python3_ROOT_DIR: '/opt/hostedtoolcache/Python/3.12.1/x64',
  PKG_CONFIG_PATH: '/opt/hostedtoolcache/Python/3.12.1/x64/lib/pkgconfig',
  DOTNET_ROOT: '/usr/share/dotnet',
  ANDROID_HOME: '/usr/local/lib/android/sdk',
  ANDROID_SDK_ROOT: '/usr/local/lib/android/sdk',
  ANDROID_KEYSTORE_PASSWORD: 'signing-secret',
  PNPM_HOME: '/home/runner/setup-pnpm/node_modules/.bin',
  NVM_DIR: '/home/runner/.nvm',
  PLAYWRIGHT_BROWSERS_PATH: '/home/runner/.cache/ms-playwright',
  GOPROXY: 'https://ci:s3cret-proxy-pass@goproxy.internal.example',
  PIP_INDEX_URL: 'https://__token__:pypi-AgEIcHlwaS5vcmc@pypi.internal.example/simple',
  GOPRIVATE: 'github.com/acme/*',
  GOROOT_EVIL: 'x',
  DEPLOY_KEY: 'secret',
};

describe('toolchain variables', () => {
  it('pass to verify and hooks by exact name, without verify-env', () => {
    const env = agentEnv(STEP, {}, [], commandAllowlist([]));
    for (const name of [
      'JAVA_HOME',
      'JAVA_HOME_17_X64',
      'JAVA_HOME_21_ARM64',
      'GOROOT',
      'GOPATH',
      'GOMODCACHE',
      'GOCACHE',
      'GOFLAGS',
      'CARGO_HOME',
      'RUSTUP_HOME',
      'pythonLocation',
      'Python_ROOT_DIR',
      'Python3_ROOT_DIR',
      'PKG_CONFIG_PATH',
      'DOTNET_ROOT',
      'ANDROID_HOME',
      'ANDROID_SDK_ROOT',
      'PNPM_HOME',
      'NVM_DIR',
      'PLAYWRIGHT_BROWSERS_PATH',
      'GOPRIVATE',
    ]) {
      expect(env[name], name).toBe(STEP[name as keyof typeof STEP]);
    }
  });

  it('never pass by prefix, nor with a credential in the value', () => {
    const env = agentEnv(STEP, {}, [], commandAllowlist([]));
    for (const name of [
      'JAVA_HOME_EVIL',
      'GOROOT_EVIL',
      'ANDROID_KEYSTORE_PASSWORD',
      'DEPLOY_KEY',
      'GOPROXY',
      'PIP_INDEX_URL',
    ]) {
      expect(env[name], name).toBeUndefined();
    }
    expect(withheldToolchainVariables(STEP)).toEqual(['GOPROXY', 'PIP_INDEX_URL']);
    // Named on purpose in verify-env, it passes: the workflow's choice.
    expect(agentEnv(STEP, {}, [], commandAllowlist(['GOPROXY'])).GOPROXY).toBe(STEP.GOPROXY);
  });

  it('tell a credential in a URL from a plain one', () => {
    expect(carriesCredential('https://proxy.golang.org,direct')).toBe(false);
    expect(carriesCredential('https://user:pass@host/simple')).toBe(true);
    expect(carriesCredential('https://pypi.example/simple?token=abc')).toBe(true);
    expect(carriesCredential('/home/runner/go')).toBe(false);
  });

  it('tell a token in a query or a Gemfury path, as the registry configurations are stripped of them', () => {
    expect(carriesCredential('https://goproxy.example/?access_token=S1,direct')).toBe(true);
    expect(carriesCredential('https://pypi.example/simple/?apikey=S2')).toBe(true);
    expect(carriesCredential('https://bucket.example/p?X-Amz-Signature=S3&X-Amz-Date=1')).toBe(true);
    expect(carriesCredential('https://pypi.fury.io/S4TOKEN/acme/')).toBe(true);
    expect(carriesCredential('https://pypi.example/simple/?page=2')).toBe(false);
    expect(carriesCredential('/opt/t/jdk-21/')).toBe(false);
  });
});
