// The action's inputs: ONE zod schema keyed by the kebab-case names of action.yml, built-in
// defaults included (action.yml declares none, so a user's value can be told from a default
// when merging with the repo config), parsed into one camelCase Config.
import * as z from 'zod';
import { AGENT_KINDS, type AgentSpec } from '../agents/types.js';
import { reviewerRefs, singleRef } from './agent-specs.js';
import { agentConfig, agentVersions } from './agent-settings.js';
import { defaultCallLimits, parseCallLimits } from '../sandbox/call-limits.js';
import { ConfigError, example, fail } from './errors.js';
import { boolean, field, list, oneOf, positiveDecimal, positiveNumber, text, wholeNumber } from './fields.js';
import { modelPrices } from './model-prices.js';
import { crossCheck, roles } from './roles.js';
import {
  botLogin,
  checkName,
  configPath,
  envName,
  homeFolder,
  labelName,
  presetName,
  setupCommands,
  verifyCommands,
  workflowFile,
} from './values.js';

export const inputSchemaShape = {
  'github-token': z.string({
    error: 'is required (its default is ${{ github.token }}). Example: github-token: ${{ github.token }}',
  }),
  pr: positiveNumber('pr', 42),
  mode: oneOf('mode', ['fix', 'review'], 'review').default('fix'),
  'max-rounds': wholeNumber('max-rounds', 1, 10, 3).default(3),
  'dry-run': boolean('dry-run').default(false),
  'allowed-bots': list(botLogin, true).default(() => []),
  'config-file': configPath('config-file').default('.github/pr-review-loop.yml'),
  preset: presetName('preset').default('default'),
  agent: oneOf('agent', AGENT_KINDS, 'claude').default('claude'),
  'agent-command': text(),
  'agent-config': agentConfig('agent-config').default(() => ({})),
  'cache-clis': boolean('cache-clis').default(false),
  reviewers: reviewerRefs('reviewers'),
  fixer: singleRef('fixer'),
  'gate-reviewer': singleRef('gate-reviewer'),
  setup: setupCommands().default(() => []),
  verify: verifyCommands().default(() => []),
  'dispatch-workflows': list(workflowFile, true).default(() => []),
  'allow-fork-fixes': boolean('allow-fork-fixes').default(false),
  'max-tokens': positiveNumber('max-tokens', 2000000),
  'max-cost-usd': positiveDecimal('max-cost-usd', '5'),
  'wait-for-checks': list(checkName, false).default(() => []),
  'fail-on': oneOf('fail-on', ['none', 'P0', 'P1', 'P2'], 'P1').default('P0'),
  isolation: oneOf('isolation', ['auto', 'required', 'off'], 'required').default('auto'),
  'call-limits': field((value) => {
    try {
      return parseCallLimits(value);
    } catch (e) {
      return fail(e instanceof Error ? e.message : String(e), null, example('call-limits', 'memory=4G pids=2048'));
    }
  }).default(() => defaultCallLimits()),
  'setup-env': list(envName('setup-env'), true).default(() => []),
  'verify-env': list(envName('verify-env'), true).default(() => []),
  'agent-env': list(envName('agent-env'), true).default(() => []),
  'home-folders': list(homeFolder, true).default(() => []),
  // Deprecated as workflow inputs (deprecated-inputs.ts): the repository config's to set.
  'agent-timeout-minutes': wholeNumber('agent-timeout-minutes', 1, 360, 30).default(20),
  'max-diff-lines': positiveNumber('max-diff-lines', 4000).default(4000),
  'max-diff-chars': positiveNumber('max-diff-chars', 200000).default(200000),
  'gate-max-loops': wholeNumber('gate-max-loops', 1, 10, 2).default(2),
  'checks-timeout-minutes': wholeNumber('checks-timeout-minutes', 1, 360, 30).default(30),
  'ci-fix-attempts': wholeNumber('ci-fix-attempts', 1, 10, 2).default(2),
  'inline-min-priority': oneOf('inline-min-priority', ['P0', 'P1', 'P2', 'P3'], 'P1').default('P3'),
  'inline-max-comments': wholeNumber('inline-max-comments', 1, 100, 10),
  'hide-outdated-reports': boolean('hide-outdated-reports').default(true),
  analyzer: singleRef('analyzer'),
  'agent-versions': agentVersions('agent-versions').default(() => ({})),
  confirm: oneOf('confirm', ['none', 'P0', 'P1'], 'P1').default('none'),
  'model-prices': modelPrices('model-prices').default(() => ({})),
  'inline-comments': boolean('inline-comments').default(true),
  'thread-answers': boolean('thread-answers').default(true),
  'converged-label': field(labelName),
  'ready-when-converged': boolean('ready-when-converged').default(false),
  'verify-head': boolean('verify-head').default(true),
};

export type InputName = keyof typeof inputSchemaShape;
export const INPUT_NAMES = Object.keys(inputSchemaShape) as InputName[];
/** What the workflow (or a config layer) gave, as strings; absent or empty means "not given". */
export type RawInputs = Partial<Record<InputName, string>>;
type Parsed = z.output<z.ZodObject<typeof inputSchemaShape>>;

/** `max-diff-lines` → `maxDiffLines`, at the type level. */
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
export const camelCase = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The inputs that name agents: `roles()` turns them into the specs each role runs with. */
const ROLE_INPUTS = ['reviewers', 'analyzer', 'fixer', 'gate-reviewer'] as const;
type RoleInput = (typeof ROLE_INPUTS)[number];

/** Inputs without a default: absent unless given. */
type OptionalInput = { [K in keyof Parsed]-?: undefined extends Parsed[K] ? K : never }[keyof Parsed];
/** Every other input under its camelCase name, with the type its schema parses it to. */
type PlainInputs = { [K in Exclude<keyof Parsed, RoleInput | OptionalInput> as CamelCase<K>]: Parsed[K] } & {
  [K in Exclude<OptionalInput, RoleInput> as CamelCase<K>]?: Parsed[K];
};

export type Config = PlainInputs & {
  reviewers: AgentSpec[];
  analyzer: AgentSpec;
  fixer: AgentSpec;
  gateReviewer?: AgentSpec | undefined;
};

function toConfig(o: Parsed): Config {
  const { reviewers, analyzer, fixer, gate } = roles(o);
  const isRole = (name: string) => (ROLE_INPUTS as readonly string[]).includes(name);
  // Every input gets its field, given or not (an absent one is undefined).
  const plain = INPUT_NAMES.flatMap((name) => (isRole(name) ? [] : [[camelCase(name), o[name]]]));
  // The cast is what the types above say: same values, camelCase keys.
  return { ...(Object.fromEntries(plain) as PlainInputs), reviewers, analyzer, fixer, gateReviewer: gate };
}

const inputSchema = z
  .object(inputSchemaShape)
  .superRefine(crossCheck, { when: () => true })
  .transform(toConfig);

/** How a problem names the place a value came from; repo-config.ts names file and key instead. */
export type Describe = (name: string) => string;
const asInput: Describe = (name) => `Input "${name}"`;

/** Validates raw values (all layers already merged); throws ConfigError with every problem. */
export function validateInputs(raw: RawInputs, describe: Describe = asInput): Config {
  const given = Object.fromEntries(
    Object.entries(raw)
      .map(([name, value]) => [name, value?.trim()])
      .filter(([, value]) => value),
  );
  const result = inputSchema.safeParse(given);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((i) => `${describe(String(i.path[0] ?? 'inputs'))} ${i.message}`));
}

/** Phase one: everything the workflow gave, validated before any network request. */
export function parseInputs(read: (name: string) => string | undefined): Config {
  return validateInputs(Object.fromEntries(INPUT_NAMES.map((name) => [name, read(name)])));
}

/** Inputs as the runner passes them: `INPUT_<NAME>`, upper-cased, spaces → `_`, dashes kept. */
export function readInputsFromEnv(env: NodeJS.ProcessEnv = process.env): RawInputs {
  const raw: RawInputs = {};
  for (const name of INPUT_NAMES) {
    const value = env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`]?.trim();
    if (value) raw[name] = value;
  }
  return raw;
}
