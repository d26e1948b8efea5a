// The variables the `setup-*` actions and the runner images set so that a toolchain is found
// (JAVA_HOME, GOROOT, CARGO_HOME, …) reach every call that runs commands without the workflow
// naming them: a verify command that runs `cargo test` needs them as the step does. Exact names
// only, never prefixes: `ANDROID_*` would hand over signing passwords, `GO*` a GOPROXY token.
// A value that carries a credential (a URL with a user and password, as GOPROXY and
// PIP_INDEX_URL often hold) is withheld and named in the log; the workflow can still pass it on
// purpose through `verify-env` or `agent-env`. The names are the one list of src/domain/toolchain-variables.ts.
import { TOOLCHAIN_VARIABLE_FAMILIES, TOOLCHAIN_VARIABLES } from '../domain/toolchain-variables.js';
import { withoutUrlTokens } from '../sandbox/url-tokens.js';

export function isToolchainVariable(name: string): boolean {
  return Object.hasOwn(TOOLCHAIN_VARIABLES, name) || TOOLCHAIN_VARIABLE_FAMILIES.some((re) => re.test(name));
}

/**
 * A URL with a password (`scheme://user:password@host`), or a token the registry configurations
 * are stripped of (url-tokens.ts: a query parameter named as a credential, `?access_token=`,
 * `&X-Amz-Signature=`, or a Gemfury path token): one list of what a URL's token looks like.
 */
export function carriesCredential(value: string): boolean {
  return /[a-z][a-z0-9+.-]*:\/\/[^/\s@:]*:[^/\s@]+@/i.test(value) || withoutUrlTokens(value) !== value;
}

/** The toolchain variables of `env` withheld because their values carry a credential, sorted. */
export function withheldToolchainVariables(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => value !== undefined && isToolchainVariable(name) && carriesCredential(value))
    .map(([name]) => name)
    .sort();
}
