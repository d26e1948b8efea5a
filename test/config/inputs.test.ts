import { totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { parseInputs, readInputsFromEnv, type Config } from '../../src/config/inputs.js';

const TOKEN = { 'github-token': 'ghs_test' };

function parse(inputs: Record<string, string>): Config {
  return parseInputs((name) => inputs[name]);
}

/** The problems of the ConfigError that parsing these inputs throws. */
function problems(inputs: Record<string, string>): string[] {
  try {
    parse(inputs);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

describe('parseInputs', () => {
  it('fills every built-in default when only the token is given', () => {
    expect(parse(TOKEN)).toEqual({
      githubToken: 'ghs_test',
      pr: undefined,
      agent: 'claude',
      agentCommand: undefined,
      agentConfig: {},
      agentVersions: {},
      reviewers: [{ agent: 'claude', model: 'claude-sonnet-4-5' }],
      analyzer: { agent: 'claude', model: 'claude-sonnet-4-5' },
      fixer: { agent: 'claude', model: 'claude-sonnet-4-5' },
      gateReviewer: undefined,
      gateMaxLoops: 2,
      mode: 'fix',
      maxRounds: 3,
      setup: [],
      verify: [],
      confirm: 'none',
      failOn: 'P0',
      agentTimeoutMinutes: 20,
      maxDiffLines: 4000,
      maxDiffChars: 200000,
      configFile: '.github/pr-review-loop.yml',
      preset: 'default',
      dryRun: false,
      allowedBots: [],
      dispatchWorkflows: [],
      allowForkFixes: false,
      cacheClis: false,
      isolation: 'auto',
      // Half this machine's memory by default: sized where the action runs.
      callLimits: {
        memoryBytes: Math.floor(totalmem() / 2),
        pids: 4096,
        cpuWeight: 50,
        homeBytes: 256 * 1024 ** 2,
        diskFloorBytes: 1024 ** 3,
        setupMs: 600_000,
      },
      setupEnv: [],
      verifyEnv: [],
      agentEnv: [],
      homeFolders: [],
      maxTokens: undefined,
      maxCostUsd: undefined,
      modelPrices: {},
      inlineComments: true,
      inlineMinPriority: 'P3',
      inlineMaxComments: undefined,
      hideOutdatedReports: true,
      verifyHead: true,
      threadAnswers: true,
      convergedLabel: undefined,
      readyWhenConverged: false,
      waitForChecks: [],
      checksTimeoutMinutes: 30,
      ciFixAttempts: 2,
    } satisfies Config);
  });

  it('reads the hand-off inputs, and refuses a label name GitHub would not take', () => {
    const config = parse({
      ...TOKEN,
      'inline-comments': 'false',
      'hide-outdated-reports': 'false',
      'thread-answers': 'false',
      'converged-label': 'ready for humans',
      'ready-when-converged': 'true',
    });
    expect(config).toMatchObject({
      inlineComments: false,
      hideOutdatedReports: false,
      threadAnswers: false,
      convergedLabel: 'ready for humans',
      readyWhenConverged: true,
    });
    expect(problems({ ...TOKEN, 'converged-label': 'x'.repeat(51) })).toEqual([
      `Input "converged-label" must be one label name of at most 50 characters; got "${'x'.repeat(51)}". ` +
        'Example: converged-label: ready-for-human-review',
    ]);
  });

  it('reads quiet mode, and refuses a priority or a cap it does not know', () => {
    expect(parse({ ...TOKEN, 'inline-min-priority': 'P1', 'inline-max-comments': '5' })).toMatchObject({
      inlineMinPriority: 'P1',
      inlineMaxComments: 5,
    });
    expect(problems({ ...TOKEN, 'inline-min-priority': 'high', 'inline-max-comments': '0' })).toEqual([
      'Input "inline-min-priority" must be one of P0, P1, P2, P3; got "high". Example: inline-min-priority: P1',
      'Input "inline-max-comments" must be a whole number from 1 to 100; got "0". Example: inline-max-comments: 10',
    ]);
  });

  it('reads the budget: max-tokens, max-cost-usd and model prices', () => {
    const config = parse({
      ...TOKEN,
      reviewers: 'codex:my-model',
      'max-tokens': '500000',
      'max-cost-usd': '2.50',
      'model-prices': 'my-model:\n  input: 0.5\n  output: 4',
    });
    expect(config.maxTokens).toBe(500000);
    expect(config.maxCostUsd).toBe(2.5);
    expect(config.modelPrices).toEqual({ 'my-model': { input: 0.5, output: 4 } });
  });

  it('refuses a cost limit when a model of a role has no price, naming it and showing how to add one', () => {
    // Claude Code reports its cost; Codex reports only tokens, and the table knows gpt-5-codex.
    expect(parse({ ...TOKEN, reviewers: 'claude:claude-x\ncodex:gpt-5-codex', 'max-cost-usd': '5' }).maxCostUsd).toBe(
      5,
    );
    const [only, ...rest] = problems({ ...TOKEN, reviewers: 'codex:my-model', 'max-cost-usd': '5' });
    expect(rest).toEqual([]);
    expect(only).toMatch(
      /^Input "max-cost-usd" needs a price for model "my-model": its CLI reports tokens but not cost/,
    );
    expect(only).toContain('Example: model-prices: |\n    my-model:\n      input: 3\n      output: 15');
    // max-tokens needs no price.
    expect(parse({ ...TOKEN, reviewers: 'codex:my-model', 'max-tokens': '1000' }).maxTokens).toBe(1000);
  });

  it('refuses a budget that is not a positive number, and prices without input and output', () => {
    expect(
      problems({ ...TOKEN, 'max-cost-usd': '-1', 'max-tokens': '1.5', 'model-prices': 'm: { input: 1 }' }),
    ).toEqual([
      'Input "max-tokens" must be a whole number 1 or more; got "1.5". Example: max-tokens: 2000000',
      'Input "max-cost-usd" must be a positive number; got "-1". Example: max-cost-usd: 5',
      'Input "model-prices" has no valid price for "m": give input and output, USD per million tokens. ' +
        'Example: model-prices: |\n    my-model:\n      input: 3\n      output: 15',
    ]);
  });

  it('treats empty and blank values as not given, and trims the rest', () => {
    const config = parse({ ...TOKEN, 'max-rounds': '', mode: '   ', reviewers: '', 'max-diff-lines': ' 100\n' });
    expect(config.maxDiffLines).toBe(100);
    expect(config.maxRounds).toBe(3);
    expect(config.mode).toBe('fix');
    expect(config.reviewers).toHaveLength(1);
  });

  it('reads isolation and the variable lists, and refuses a credential name or a malformed one', () => {
    const config = parse({
      ...TOKEN,
      isolation: 'Required',
      'verify-env': 'NPM_TOKEN, PYPI_TOKEN',
      'agent-env': 'MY_KEY',
    });
    expect(config.isolation).toBe('required');
    expect(config.verifyEnv).toEqual(['NPM_TOKEN', 'PYPI_TOKEN']);
    expect(config.agentEnv).toEqual(['MY_KEY']);
    expect(
      problems({ ...TOKEN, 'verify-env': 'GITHUB_TOKEN', 'agent-env': 'NOT-A-NAME', isolation: 'sometimes' }),
    ).toEqual([
      'Input "isolation" must be one of auto, required, off; got "sometimes". Example: isolation: required',
      'Input "verify-env" names a GitHub or Actions credential, which no child process may get; got "GITHUB_TOKEN". ' +
        'Example: verify-env: NPM_TOKEN',
      'Input "agent-env" must list environment variable names, one per line or comma-separated; got "NOT-A-NAME". ' +
        'Example: agent-env: NPM_TOKEN',
    ]);
  });

  it('reads home-folders, and refuses a path that leaves HOME', () => {
    expect(parse({ ...TOKEN, 'home-folders': '.elan\n!.config/acme/token.json' }).homeFolders).toEqual([
      '.elan',
      '!.config/acme/token.json',
    ]);
    expect(problems({ ...TOKEN, 'home-folders': '../etc' })).toEqual([
      'Input "home-folders" must list paths below the runner\'s HOME (no leading /, no ..), `!` before one never ' +
        'to show; got "../etc". Example: home-folders: .elan, !.config/acme/token.json',
    ]);
  });

  it('requires the token without echoing anything', () => {
    expect(problems({ 'github-token': '' })).toEqual([
      'Input "github-token" is required (its default is ${{ github.token }}). Example: github-token: ${{ github.token }}',
    ]);
  });

  it('parses every kind of value', () => {
    const config = parse({
      ...TOKEN,
      pr: '42',
      agent: 'Codex',
      'max-rounds': '10',
      'dry-run': 'TRUE',
      'allow-fork-fixes': 'False',
      confirm: 'p1',
      'fail-on': 'none',
      verify: 'npm ci\n\n# comment\n  npm test  ',
      'allowed-bots': 'renovate[bot], dependabot\nmy-bot',
      'dispatch-workflows': 'ci.yml,.github/workflows/e2e.yaml\n12345',
      'agent-config':
        'codex:\n  model_provider: local\n  model_providers:\n    local: { base_url: "http://127.0.0.1:9" }',
      'agent-versions': 'claude@2.1.330\ncodex@latest',
    });
    expect(config).toMatchObject({
      pr: 42,
      agent: 'codex',
      reviewers: [{ agent: 'codex', model: 'gpt-5-codex' }],
      maxRounds: 10,
      dryRun: true,
      allowForkFixes: false,
      confirm: 'P1',
      failOn: 'none',
      verify: ['npm ci', 'npm test'],
      allowedBots: ['renovate[bot]', 'dependabot', 'my-bot'],
      dispatchWorkflows: ['ci.yml', 'e2e.yaml', '12345'],
      agentConfig: {
        codex: { model_provider: 'local', model_providers: { local: { base_url: 'http://127.0.0.1:9' } } },
      },
      agentVersions: { claude: '2.1.330', codex: 'latest' },
    });
  });

  it('accepts agent-versions and agent-config as JSON or YAML maps, keeping versions as text', () => {
    const yaml = parse({ ...TOKEN, 'agent-versions': 'opencode: 1.18.33\ngemini: v0.61.0' });
    expect(yaml.agentVersions).toEqual({ opencode: '1.18.33', gemini: 'v0.61.0' });
    const json = parse({ ...TOKEN, 'agent-versions': '{"claude": "2.1.197"}', 'agent-config': '{"gemini": {"x": 1}}' });
    expect(json.agentVersions).toEqual({ claude: '2.1.197' });
    expect(json.agentConfig).toEqual({ gemini: { x: 1 } });
  });

  // One bad value per input: the message names the input, shows the value, and gives an example.
  it.each([
    ['pr', '0', '"0"', 'pr: 42'],
    ['pr', 'abc', '"abc"', 'pr: 42'],
    ['agent', 'cursor', '"cursor"', 'agent: claude'],
    ['reviewers', 'claud:claude-sonnet-4-5', '"claud:claude-sonnet-4-5"', 'reviewers: |'],
    ['analyzer', 'a\nb', '"a\\nb"', 'analyzer: claude:claude-sonnet-4-5'],
    ['fixer', 'claude:', '"claude:"', 'fixer: claude:claude-sonnet-4-5'],
    ['gate-reviewer', 'two words', '"two words"', 'gate-reviewer: claude:claude-sonnet-4-5'],
    ['gate-max-loops', '11', '"11"', 'gate-max-loops: 2'],
    ['mode', 'auto', '"auto"', 'mode: review'],
    ['max-rounds', 'eleven', '"eleven"', 'max-rounds: 3'],
    ['confirm', 'P2', '"P2"', 'confirm: P1'],
    ['fail-on', 'P3', '"P3"', 'fail-on: P1'],
    ['agent-timeout-minutes', '361', '"361"', 'agent-timeout-minutes: 30'],
    ['max-diff-lines', '-5', '"-5"', 'max-diff-lines: 4000'],
    ['max-diff-chars', '1.5', '"1.5"', 'max-diff-chars: 200000'],
    ['config-file', '../other/config.yml', '"../other/config.yml"', 'config-file: .github/pr-review-loop.yml'],
    ['preset', 'my preset', '"my preset"', 'preset: strict'],
    ['dry-run', 'yes', '"yes"', 'dry-run: true'],
    ['allow-fork-fixes', '1', '"1"', 'allow-fork-fixes: true'],
    ['allowed-bots', 'renovate bot', '"renovate bot"', 'allowed-bots: renovate[bot]'],
    ['dispatch-workflows', 'ci', '"ci"', 'dispatch-workflows: ci.yml'],
    ['agent-versions', 'claude@^2.0', '"^2.0"', 'agent-versions: |'],
    ['agent-versions', 'cursor@1.0.0', '"cursor"', 'agent-versions: |'],
  ])('rejects %s = %j', (name, value, shown, ex) => {
    const [problem, ...rest] = problems({ ...TOKEN, [name]: value });
    expect(rest).toEqual([]);
    expect(problem).toMatch(new RegExp(`^Input "${name}" `));
    expect(problem).toContain(`got ${shown}`);
    expect(problem).toContain(`Example: ${ex}`);
  });

  it('shows the documented example for max-rounds word for word', () => {
    expect(problems({ ...TOKEN, 'max-rounds': 'eleven' })).toEqual([
      'Input "max-rounds" must be a whole number from 1 to 10; got "eleven". Example: max-rounds: 3',
    ]);
  });

  it('rejects agent-config without echoing it, since it may hold keys', () => {
    for (const value of ['codex: [unclosed', '- a list', 'cursor: {}', 'codex: 3']) {
      const [problem, ...rest] = problems({ ...TOKEN, 'agent-config': value });
      expect(rest).toEqual([]);
      expect(problem).toMatch(/^Input "agent-config" /);
      expect(problem).toContain('Example: agent-config: |');
      expect(problem).not.toContain('got');
    }
  });

  it('collects every problem instead of stopping at the first', () => {
    const found = problems({
      'max-rounds': '0',
      mode: 'fixx',
      'dry-run': 'maybe',
      reviewers: 'command:script',
    });
    expect(found.map((p) => /^Input "([^"]+)"/.exec(p)?.[1]).sort()).toEqual(
      ['agent-command', 'dry-run', 'github-token', 'max-rounds', 'mode'].sort(),
    );
  });
});

describe('readInputsFromEnv', () => {
  it('reads INPUT_<NAME> as the runner sets it: upper-cased, dashes kept, trimmed', () => {
    const env = {
      'INPUT_GITHUB-TOKEN': ' ghs_x \n',
      'INPUT_MAX-ROUNDS': '5',
      INPUT_MAX_ROUNDS: '7',
      INPUT_MODE: '',
      INPUT_REVIEWERS: '  claude:a\n  codex:b\n',
      'INPUT_UNKNOWN-THING': 'x',
    };
    const raw = readInputsFromEnv(env);
    expect(raw).toEqual({ 'github-token': 'ghs_x', 'max-rounds': '5', reviewers: 'claude:a\n  codex:b' });
    const config = parseInputs((name) => raw[name as keyof typeof raw]);
    expect(config.maxRounds).toBe(5);
    expect(config.reviewers).toEqual([
      { agent: 'claude', model: 'a' },
      { agent: 'codex', model: 'b' },
    ]);
  });
});

describe('call-limits', () => {
  it('reads bounds by size, share or max, and refuses anything else naming the input', () => {
    expect(
      parse({ 'github-token': 't', 'call-limits': 'memory=4G pids=max cpu-weight=20 home=64M disk=2G' }).callLimits,
    ).toEqual({
      memoryBytes: 4 * 1024 ** 3,
      pids: null,
      cpuWeight: 20,
      homeBytes: 64 * 1024 ** 2,
      diskFloorBytes: 2 * 1024 ** 3,
      setupMs: 600_000,
    });
    expect(parse({ 'github-token': 't', 'call-limits': 'disk=0' }).callLimits.diskFloorBytes).toBe(0);
    expect(parse({ 'github-token': 't', 'call-limits': 'memory=max' }).callLimits.memoryBytes).toBeNull();
    expect(parse({ 'github-token': 't', 'call-limits': 'memory=25%' }).callLimits.memoryBytes).toBe(
      Math.floor(totalmem() / 4),
    );
    expect(parse({ 'github-token': 't', 'call-limits': 'setup=90s' }).callLimits.setupMs).toBe(90_000);
    expect(parse({ 'github-token': 't', 'call-limits': 'setup=1h' }).callLimits.setupMs).toBe(3_600_000);
    for (const bad of [
      'memory=12',
      'pids=3',
      'cpu=50',
      'cpu-weight=0',
      'memory=101%',
      'home=8M',
      'home=50%',
      'disk=-1',
      'setup=5s',
      'setup=10',
      'setup=7h',
    ]) {
      expect(() => parse({ 'github-token': 't', 'call-limits': bad }), bad).toThrow(
        /call-limits.*Example: call-limits: memory=4G pids=2048/s,
      );
    }
  });
});

describe('setup', () => {
  it('reads commands one a line, and setup-env names like verify-env', () => {
    const config = parse({ ...TOKEN, setup: 'npm ci\n\npip install -e .', 'setup-env': 'NPM_TOKEN, PIP_INDEX_URL' });
    expect(config.setup).toEqual(['npm ci', 'pip install -e .']);
    expect(config.setupEnv).toEqual(['NPM_TOKEN', 'PIP_INDEX_URL']);
  });

  it('refuses `none` and a GitHub credential, naming the input with an example', () => {
    expect(() => parse({ ...TOKEN, setup: 'none' })).toThrow(/Input "setup" .*leave it unset.*Example: setup: npm ci/s);
    expect(() => parse({ ...TOKEN, 'setup-env': 'GITHUB_TOKEN' })).toThrow(/Input "setup-env" .*credential/s);
  });
});
