// The repo config file (`.github/pr-review-loop.yml`, read from the BASE branch by the caller):
// presets and defaults (partial inputs, same kebab-case keys), lifecycle hooks,
// extra review instructions, and path filters.
import { ConfigError } from './errors.js';
import { plainWords, problemLines, readYaml } from './file-problems.js';
import { validateInputs, type Config, type InputName, type RawInputs } from './inputs.js';
import { repoConfigSchema, type HookPoint } from './repo-config-schema.js';
import { VERIFY_EXAMPLE } from './values.js';

export type { HookPoint };

export type ResolvedConfig = Config &
  Pick<RepoConfig, 'hooks' | 'instructions' | 'paths' | 'rulesFile' | 'decisionAnswerers'>;

export interface RepoConfig {
  presets: Record<string, RawInputs>;
  defaults: RawInputs;
  hooks: Record<HookPoint, string[]>;
  instructions?: string | undefined;
  paths: { include: string[]; exclude: string[] };
  /** The name of the rules file of a directory (review/dir-rules.ts); '' turns them off. */
  rulesFile: string;
  /**
   * Who may answer the maintainers' decisions: a permission level (`write`, `maintain`, `admin`) or a
   * team (`org/team`); absent: write access (github/answerers.ts). Never the PR's author or a pusher.
   */
  decisionAnswerers?: string | undefined;
  /** Where a key of the file is, `file:line`, for a problem found once the layers are merged. */
  placeOf(path: readonly string[]): string;
}

/** Parses and checks the file's text; every problem names the file, the line and the key. */
export function parseRepoConfig(text: string, file: string): RepoConfig {
  const read = readYaml(text, file);
  const result = repoConfigSchema.safeParse(read.data, { error: plainWords });
  if (!result.success) throw new ConfigError(problemLines(file, read, result.error.issues));
  const { 'rules-file': rulesFile, 'decision-answerers': decisionAnswerers, ...rest } = result.data;
  const placeOf = (path: readonly string[]) => {
    const line = read.lineOf(path);
    return line === undefined ? file : `${file}:${line}`;
  };
  return { ...rest, rulesFile, decisionAnswerers, placeOf };
}

/** Runs `fn`, moving the problems of a ConfigError into `problems`. */
function collect<T>(problems: string[], fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
    return undefined;
  }
}

function missingPreset(name: string, file: string, repo: RepoConfig, hasFile: boolean): string {
  const known = Object.keys(repo.presets);
  const where = hasFile ? `${file} does not define it` : `there is no ${file}`;
  const defines = known.length > 0 ? ` (presets: ${known.join(', ')})` : '';
  return `Input "preset" names "${name}", but ${where}${defines}. Example: preset: ${known[0] ?? 'default'}`;
}

/**
 * A tool that pushes must say what a fix has to pass first: `mode: fix` (the default) needs
 * `verify`, or `verify: none` to push fixes unchecked on purpose. Checked on the merged layers
 * only, as `verify` may come from the file's defaults or a preset.
 */
function unverifiedFixes(config: Config, merged: RawInputs, describe: (name: string) => string): string[] {
  if (config.mode !== 'fix' || config.verify === 'none' || config.verify.length > 0) return [];
  const from = describe('mode');
  const mode =
    merged.mode === undefined ? 'mode: fix (the default)' : `mode: fix${from.startsWith('Input') ? '' : ` (${from})`}`;
  return [
    `${describe('verify')} is required with ${mode}: a fix is pushed only after these commands pass. ` +
      `Set verify: none to push fixes without any check, or mode: review to only review. Example: ${VERIFY_EXAMPLE}`,
  ];
}

/**
 * Phase two: merges built-in defaults → the file's `defaults` → the selected preset → the
 * inputs the user gave (non-empty), and validates the result. Problems in values taken from
 * the file name the file and key; every problem found is reported at once.
 */
export function resolveConfig(args: { inputs: RawInputs; repoConfigText?: string | undefined }): ResolvedConfig {
  const trimmed = Object.entries(args.inputs).map(([name, value]) => [name, value?.trim()]);
  const given = Object.fromEntries(trimmed.filter(([, value]) => value)) as RawInputs;
  const file = given['config-file'] ?? '.github/pr-review-loop.yml';
  const text = args.repoConfigText;
  const problems: string[] = [];
  // Without a file (or with a broken one, already reported) the file adds nothing.
  const repo =
    (text !== undefined && collect(problems, () => parseRepoConfig(text, file))) || parseRepoConfig('', file);
  const presetName = given.preset ?? 'default';
  const preset = Object.hasOwn(repo.presets, presetName) ? repo.presets[presetName] : undefined;
  if (!preset && presetName !== 'default' && problems.length === 0) {
    problems.push(missingPreset(presetName, file, repo, text !== undefined));
  }
  const merged: RawInputs = {};
  const source = new Map<string, string>();
  // Where each layer sits in the file (a preset's name may hold dots); the workflow's is nowhere.
  const layers: [RawInputs, string[] | null][] = [
    [repo.defaults, ['defaults']],
    [preset ?? {}, ['presets', presetName]],
    [given, null],
  ];
  for (const [values, at] of layers) {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      merged[key as InputName] = value;
      if (at) source.set(key, `${repo.placeOf([...at, key])}: ${[...at, key].join('.')}`);
      else source.delete(key);
    }
  }
  const describe = (name: string) => source.get(name) ?? `Input "${name}"`;
  const config = collect(problems, () => validateInputs(merged, describe));
  // A broken file may have held `verify`: its own problems come first.
  if (config && problems.length === 0) problems.push(...unverifiedFixes(config, merged, describe));
  if (!config || problems.length > 0) throw new ConfigError(problems);
  const { hooks, instructions, paths, rulesFile, decisionAnswerers } = repo;
  return { ...config, hooks, instructions, paths, rulesFile, decisionAnswerers };
}
