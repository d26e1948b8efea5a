// The repo config file (`.github/pr-review-loop.yml`, read from the BASE branch by the caller):
// presets and defaults (partial inputs, same kebab-case keys), lifecycle hooks,
// extra review instructions, and path filters.
import YAML from 'yaml';
import * as z from 'zod';
import { ConfigError, firstLine } from './errors.js';
import { inputLayer } from './input-layer.js';
import { validateInputs, type Config, type InputName, type RawInputs } from './inputs.js';
import { VERIFY_EXAMPLE } from './values.js';

const HOOK_POINTS = ['before-review', 'after-review', 'after-fix', 'after-finish'] as const;
export type HookPoint = (typeof HOOK_POINTS)[number];

export type ResolvedConfig = Config & Pick<RepoConfig, 'hooks' | 'instructions' | 'paths' | 'rulesFile'>;

export interface RepoConfig {
  presets: Record<string, RawInputs>;
  defaults: RawInputs;
  hooks: Record<HookPoint, string[]>;
  instructions?: string | undefined;
  paths: { include: string[]; exclude: string[] };
  /** The name of the rules file of a directory (review/dir-rules.ts); '' turns them off. */
  rulesFile: string;
}

/** Hook commands and path globs: one string or a list of them. */
const strings = z.union([z.string(), z.array(z.string())]).transform((v) => (typeof v === 'string' ? [v] : v));

const fileSchema = z.strictObject({
  presets: z
    .record(z.string().regex(/^[\w.-]+$/, 'preset names use letters, digits, ., _ and -'), inputLayer)
    .default(() => ({})),
  defaults: inputLayer.default(() => ({})),
  hooks: z
    .strictObject({
      'before-review': strings.default(() => []),
      'after-review': strings.default(() => []),
      'after-fix': strings.default(() => []),
      'after-finish': strings.default(() => []),
    })
    .default(() => ({ 'before-review': [], 'after-review': [], 'after-fix': [], 'after-finish': [] })),
  instructions: z.string().optional(),
  'rules-file': z
    .string()
    .regex(/^[^/\\]*$/, 'is a file name, not a path (e.g. REVIEW.md)')
    .default('REVIEW.md'),
  paths: z
    .strictObject({ include: strings.default(() => []), exclude: strings.default(() => []) })
    .default(() => ({ include: [], exclude: [] })),
});

const KNOWN_KEYS: Record<string, readonly string[]> = {
  '': Object.keys(fileSchema.shape),
  hooks: HOOK_POINTS,
  paths: ['include', 'exclude'],
};

function issueLine(file: string, issue: z.core.$ZodIssue): string {
  const where = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => (where ? `${where}.${k}` : k)).join(', ');
    const known = KNOWN_KEYS[where]?.join(', ') ?? '';
    return `${file}: ${keys} ${issue.keys.length > 1 ? 'are not known keys' : 'is not a known key'} (known: ${known})`;
  }
  return `${file}: ${where || 'the top level'} ${issue.message}`;
}

/** Zod's messages in the words of the file's author: maps and lists, not objects and arrays. */
function plainWords(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_union') return 'must be a string or a list of strings';
  if (issue.code !== 'invalid_type') return undefined;
  const noun: Record<string, string> = { object: 'a map', array: 'a list', string: 'a string' };
  return `must be ${noun[issue.expected] ?? issue.expected}`;
}

/** Parses and checks the file's text; every problem names the file and the key. */
export function parseRepoConfig(text: string, file: string): RepoConfig {
  let data: unknown;
  try {
    data = YAML.parse(text) ?? {};
  } catch (error) {
    throw new ConfigError([`${file} is not valid YAML: ${firstLine(error)}`]);
  }
  const result = fileSchema.safeParse(data, { error: plainWords });
  if (!result.success) throw new ConfigError(result.error.issues.map((issue) => issueLine(file, issue)));
  const { 'rules-file': rulesFile, ...rest } = result.data;
  return { ...rest, rulesFile };
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
  const layers: [RawInputs, string | null][] = [
    [repo.defaults, 'defaults'],
    [preset ?? {}, `presets.${presetName}`],
    [given, null],
  ];
  for (const [values, label] of layers) {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      merged[key as InputName] = value;
      if (label) source.set(key, `${file}: ${label}.${key}`);
      else source.delete(key);
    }
  }
  const describe = (name: string) => source.get(name) ?? `Input "${name}"`;
  const config = collect(problems, () => validateInputs(merged, describe));
  // A broken file may have held `verify`: its own problems come first.
  if (config && problems.length === 0) problems.push(...unverifiedFixes(config, merged, describe));
  if (!config || problems.length > 0) throw new ConfigError(problems);
  const { hooks, instructions, paths, rulesFile } = repo;
  return { ...config, hooks, instructions, paths, rulesFile };
}
