// The tuning inputs that moved to the repository config: the file's value takes effect, a
// workflow's value still does and warns with the file's equivalent, which the file accepts as is.
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { DEPRECATED_INPUTS, deprecatedInputWarnings } from '../../src/config/deprecated-inputs.js';
import { camelCase, type Config, type RawInputs } from '../../src/config/inputs.js';
import { resolveConfig } from '../../src/config/repo-config.js';

/** A value of each moved input that is not its default, as a workflow would write it. */
const CHANGED: Record<(typeof DEPRECATED_INPUTS)[number], string> = {
  'agent-timeout-minutes': '45',
  'max-diff-lines': '6000',
  'max-diff-chars': '300000',
  'gate-max-loops': '3',
  'checks-timeout-minutes': '45',
  'ci-fix-attempts': '3',
  'inline-min-priority': 'P1',
  'inline-max-comments': '5',
  'hide-outdated-reports': 'false',
  analyzer: 'codex:gpt-5-codex || claude:claude-opus-4-1',
  'agent-versions': 'claude@2.1.300\ncodex@0.160.0',
  confirm: 'P0',
  'model-prices': '{"my-model": {"input": 3, "output": 15}}',
  'inline-comments': 'false',
  'thread-answers': 'false',
  'converged-label': 'ready-for-human-review',
  'ready-when-converged': 'true',
  'verify-head': 'false',
};
const BASE: RawInputs = { 'github-token': 'ghs_fromTheRunner', mode: 'review' };
const valueOf = (config: Config, name: string) => (config as unknown as Record<string, unknown>)[camelCase(name)];

describe.each(DEPRECATED_INPUTS)('%s', (name) => {
  const defaults = resolveConfig({ inputs: BASE });
  // What the workflow's value parses to, the value both ways below must reach.
  const changed = valueOf(resolveConfig({ inputs: { ...BASE, [name]: CHANGED[name] } }), name);

  it('takes effect from the repository config, with no warning', () => {
    const text = YAML.stringify({ defaults: { [name]: CHANGED[name] } });
    const config = resolveConfig({ inputs: BASE, repoConfigText: text });
    expect(valueOf(config, name)).toEqual(changed);
    expect(valueOf(config, name)).not.toEqual(valueOf(defaults, name));
    expect(deprecatedInputWarnings(BASE, config)).toEqual([]);
  });

  it('still takes effect from the workflow, and warns with YAML the repository config accepts', () => {
    const given = { ...BASE, [name]: CHANGED[name] };
    const config = resolveConfig({ inputs: given });
    expect(valueOf(config, name)).toEqual(changed);
    const warnings = deprecatedInputWarnings(given, config);
    expect(warnings).toHaveLength(1);
    const [head, ...yaml] = warnings[0]!.split('\n');
    expect(head).toContain(`Input "${name}" is deprecated as a workflow input`);
    expect(head).toContain('.github/pr-review-loop.yml');
    // The example, pasted as the whole file, sets the same value and nothing else.
    const example = yaml.join('\n');
    expect(YAML.parse(example)).toEqual({ defaults: { [name]: expect.anything() } });
    const fromFile = resolveConfig({ inputs: BASE, repoConfigText: example });
    expect(valueOf(fromFile, name)).toEqual(changed);
  });
});

it('names the config file the workflow chose, and warns once for each moved input given', () => {
  const given = { ...BASE, 'config-file': '.github/review.yml', ...CHANGED };
  const config = resolveConfig({ inputs: given });
  const warnings = deprecatedInputWarnings(given, config);
  expect(warnings.map((w) => /^Input "([^"]+)"/.exec(w)?.[1])).toEqual([...DEPRECATED_INPUTS]);
  for (const w of warnings) expect(w).toContain('repository config .github/review.yml');
});

it('gives no warning for the inputs a typical workflow sets', () => {
  const given: RawInputs = {
    ...BASE,
    mode: 'fix',
    verify: 'npm test',
    reviewers: 'claude:claude-sonnet-4-5',
    fixer: 'claude:claude-sonnet-4-5',
    'fail-on': 'P1',
    'max-cost-usd': '2',
    'dispatch-workflows': 'ci.yml',
    'max-rounds': '2',
  };
  expect(deprecatedInputWarnings(given, resolveConfig({ inputs: given }))).toEqual([]);
});
