// Tuning inputs that moved to the repository config: a repository sets them once, and a typical
// workflow never needs them. For one major version a workflow may still give them: the value
// applies as before, and the log warns with the same setting written for the file.
import YAML from 'yaml';
import { camelCase, type Config, type InputName, type RawInputs } from './inputs.js';

/** The inputs a workflow should no longer give (action.yml groups them under "Deprecated"). */
export const DEPRECATED_INPUTS = [
  'agent-timeout-minutes',
  'max-diff-lines',
  'max-diff-chars',
  'gate-max-loops',
  'checks-timeout-minutes',
  'ci-fix-attempts',
  'inline-min-priority',
  'inline-max-comments',
  'hide-outdated-reports',
  'analyzer',
  'agent-versions',
  'confirm',
  'model-prices',
  'inline-comments',
  'thread-answers',
  'converged-label',
  'ready-when-converged',
  // Never a workflow input: a repository's own tuning, listed here so the workflow is told where it goes.
  'verify-head',
] as const satisfies readonly InputName[];
type DeprecatedInput = (typeof DEPRECATED_INPUTS)[number];

/**
 * The value as the file would hold it: numbers, switches and maps as parsed; an agent entry
 * (`analyzer`, parsed into an agent spec) as the workflow wrote it.
 */
function fileValue(name: DeprecatedInput, given: string, config: Config): unknown {
  if (name === 'analyzer') return given.trim();
  return (config as unknown as Record<string, unknown>)[camelCase(name)];
}

/**
 * One warning for each deprecated input the workflow gave (`given`: the workflow's values only),
 * naming it and showing the repository config that sets the same value, as parsed (`config`), so
 * the example is valid YAML the file accepts as it stands.
 */
export function deprecatedInputWarnings(given: RawInputs, config: Config): string[] {
  return DEPRECATED_INPUTS.filter((name) => given[name]?.trim()).map((name) => {
    const value = fileValue(name, given[name]!, config);
    const yaml = YAML.stringify({ defaults: { [name]: value } }).trimEnd();
    return (
      `Input "${name}" is deprecated as a workflow input: set it in the repository config ` +
      `${config.configFile} (read from the base branch) instead. This run still uses the workflow's value; ` +
      `the next major version reads it from the repository config only. Example:\n${yaml}`
    );
  });
}
