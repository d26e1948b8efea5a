import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { parseInputs, type Config } from '../../src/config/inputs.js';

function parse(inputs: Record<string, string>): Config {
  return parseInputs((name) => ({ 'github-token': 't', ...inputs })[name]);
}

function problemsOf(inputs: Record<string, string>): readonly string[] {
  try {
    parse(inputs);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('reviewer entries', () => {
  it('reads agent:model and bare models, which take the input agent', () => {
    const config = parse({
      agent: 'gemini',
      reviewers: '# the panel\nclaude:claude-sonnet-4-5\n\ngemini-2.5-pro   # inline note\n  codex:gpt-5-codex',
    });
    expect(config.reviewers).toEqual([
      { agent: 'claude', model: 'claude-sonnet-4-5' },
      { agent: 'gemini', model: 'gemini-2.5-pro' },
      { agent: 'codex', model: 'gpt-5-codex' },
    ]);
  });

  it('keeps slashes and colons that belong to the model', () => {
    const config = parse({
      reviewers: [
        'opencode:google/gemini-2.5-pro',
        'opencode:ollama/qwen2.5-coder:7b',
        'ollama:qwen:7b',
        'qwen2.5-coder:7b',
        'command-r:35b',
      ].join('\n'),
      agent: 'opencode',
    });
    expect(config.reviewers).toEqual([
      { agent: 'opencode', model: 'google/gemini-2.5-pro' },
      { agent: 'opencode', model: 'ollama/qwen2.5-coder:7b' },
      { agent: 'opencode', model: 'ollama:qwen:7b' },
      { agent: 'opencode', model: 'qwen2.5-coder:7b' },
      { agent: 'opencode', model: 'command-r:35b' },
    ]);
  });

  it('refuses a near miss of an agent name and lists the known agents', () => {
    for (const line of ['claud:claude-sonnet-4-5', 'Codex:gpt-5-codex', 'opencde:google/gemini-2.5-pro']) {
      const [problem] = problemsOf({ reviewers: line });
      expect(problem).toContain('names an unknown agent');
      expect(problem).toContain('known agents: claude, codex, opencode, gemini, command');
    }
  });

  it('accepts five reviewers and refuses six, or none', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `claude:model-${i}`).join('\n');
    expect(parse({ reviewers: lines(5) }).reviewers).toHaveLength(5);
    expect(problemsOf({ reviewers: lines(6) })[0]).toMatch(
      /^Input "reviewers" must list 1 to 5 reviewers.*\(found 6\)/,
    );
    expect(problemsOf({ reviewers: '# nobody yet' })[0]).toMatch(
      /^Input "reviewers" must list 1 to 5 reviewers.*\(found 0\)/,
    );
  });

  it('defaults analyzer and fixer to the first reviewer, each settable on its own', () => {
    const config = parse({ reviewers: 'codex:gpt-5-codex\nclaude:claude-sonnet-4-5', fixer: 'claude:claude-opus-4-5' });
    expect(config.analyzer).toEqual({ agent: 'codex', model: 'gpt-5-codex' });
    expect(config.fixer).toEqual({ agent: 'claude', model: 'claude-opus-4-5' });
  });

  it('refuses more than one analyzer or fixer', () => {
    expect(problemsOf({ analyzer: 'claude:a\nclaude:b' })[0]).toMatch(
      /^Input "analyzer" must be exactly one `agent:model` entry \(found 2\)/,
    );
    expect(problemsOf({ fixer: 'a\nb\nc' })[0]).toMatch(/^Input "fixer" must be exactly one/);
  });

  it('requires agent-command wherever the command agent is used', () => {
    const cases: Record<string, string>[] = [
      { agent: 'command' },
      { reviewers: 'command:scripted' },
      { fixer: 'command:x' },
      { 'gate-reviewer': 'command:gate' },
    ];
    for (const inputs of cases) {
      const problems = problemsOf(inputs);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(
        /^Input "agent-command" is required when [a-z-]+ (is|uses) "command"\. Example: agent-command: /,
      );
    }
  });

  it('lets the command agent carry any label as its model', () => {
    const config = parse({
      agent: 'command',
      'agent-command': 'node agent.mjs',
      reviewers: 'scripted-1\ncommand:any/label:v2',
    });
    expect(config.reviewers).toEqual([
      { agent: 'command', model: 'scripted-1' },
      { agent: 'command', model: 'any/label:v2' },
    ]);
    expect(config.agentCommand).toBe('node agent.mjs');
  });

  it('refuses a gate that is the fixer itself', () => {
    expect(problemsOf({ fixer: 'codex:gpt-5-codex', 'gate-reviewer': 'codex:gpt-5-codex' })).toEqual([
      'Input "gate-reviewer" must differ from the fixer\'s models (codex:gpt-5-codex is one). ' +
        'Example: gate-reviewer: codex:gpt-5-codex',
    ]);
    expect(parse({ fixer: 'codex:gpt-5-codex', 'gate-reviewer': 'claude-sonnet-4-5' }).gateReviewer).toEqual({
      agent: 'claude',
      model: 'claude-sonnet-4-5',
    });
  });
});

describe('the gate is another model, through any CLI', () => {
  it("refuses the fixer's model run by another CLI, or with a date", () => {
    const one = problemsOf({
      fixer: 'claude:claude-sonnet-4-5',
      'gate-reviewer': 'opencode:anthropic/claude-sonnet-4-5',
    });
    expect(one.join('\n')).toContain(
      "must differ from the fixer's models (opencode:anthropic/claude-sonnet-4-5 is one)",
    );
    const dated = problemsOf({
      fixer: 'claude:claude-sonnet-4-5',
      'gate-reviewer': 'command:claude-sonnet-4-5-20250929',
    });
    expect(dated.join('\n')).toContain("must differ from the fixer's models");
  });

  it('refuses a command gate that names no model, and takes one that names another', () => {
    const base = { fixer: 'claude:claude-sonnet-4-5', 'agent-command': 'node agent.mjs' };
    expect(problemsOf({ ...base, 'gate-reviewer': 'command:command' }).join('\n')).toContain('must differ');
    expect(parse({ ...base, 'gate-reviewer': 'command:gpt-5-codex' }).gateReviewer?.model).toBe('gpt-5-codex');
    const other = parse({ ...base, 'gate-reviewer': 'opencode:google/gemini-2.5-pro' });
    expect(other.gateReviewer?.agent).toBe('opencode');
  });
});

describe('fallback models', () => {
  it('reads `a || b` in every role, the input agent filling in bare models', () => {
    const config = parse({
      agent: 'codex',
      reviewers:
        'claude:claude-sonnet-4-5 || gpt-5-codex || gemini:gemini-2.5-pro  # two fallbacks\ngemini:gemini-2.5-pro',
      analyzer: 'claude:claude-sonnet-4-5||codex:gpt-5-codex',
      fixer: 'claude:claude-sonnet-4-5 || codex:gpt-5-codex',
      'gate-reviewer': 'gemini:gemini-2.5-pro || opencode:google/gemini-2.5-pro',
    });
    expect(config.reviewers[0]).toEqual({
      agent: 'claude',
      model: 'claude-sonnet-4-5',
      fallbacks: [
        { agent: 'codex', model: 'gpt-5-codex' },
        { agent: 'gemini', model: 'gemini-2.5-pro' },
      ],
    });
    expect(config.reviewers[1]).toEqual({ agent: 'gemini', model: 'gemini-2.5-pro' });
    expect(config.analyzer.fallbacks).toEqual([{ agent: 'codex', model: 'gpt-5-codex' }]);
    expect(config.fixer.fallbacks).toEqual([{ agent: 'codex', model: 'gpt-5-codex' }]);
    expect(config.gateReviewer?.fallbacks).toEqual([{ agent: 'opencode', model: 'google/gemini-2.5-pro' }]);
  });

  it('refuses an empty side, more than three fallbacks, or one model twice, naming the input with an example', () => {
    const cases: [Record<string, string>, string][] = [
      [{ reviewers: 'claude:claude-sonnet-4-5 ||' }, 'has an empty model before or after `||`'],
      [{ fixer: '|| codex:gpt-5-codex' }, 'has an empty model before or after `||`'],
      [{ analyzer: 'a || b || c || d || e' }, 'names 4 fallbacks; at most 3 are allowed'],
      [{ reviewers: 'claude:claude-sonnet-4-5 || claude:claude-sonnet-4-5' }, 'names claude-sonnet-4-5 twice'],
      [{ fixer: 'claude:x || claud:y' }, 'names an unknown agent "claud"'],
    ];
    for (const [inputs, words] of cases) {
      const [problem] = problemsOf(inputs);
      expect(problem).toContain(`Input "${Object.keys(inputs)[0]}"`);
      expect(problem).toContain(words);
      expect(problem).toContain('claude:claude-sonnet-4-5 || codex:gpt-5-codex');
    }
  });

  it('refuses a gate model that is one of the fixer models, fallbacks included', () => {
    const [problem] = problemsOf({
      fixer: 'claude:claude-sonnet-4-5 || codex:gpt-5-codex',
      'gate-reviewer': 'gemini:gemini-2.5-pro || codex:gpt-5-codex',
    });
    expect(problem).toContain("must differ from the fixer's models (codex:gpt-5-codex is one)");
  });

  it('needs agent-command for a command fallback, and a price for a fallback under max-cost-usd', () => {
    const problems = problemsOf({ reviewers: 'claude:claude-sonnet-4-5 || command:my-model', 'max-cost-usd': '5' });
    expect(problems.join('\n')).toContain('agent-command');
    expect(problems.join('\n')).toContain('needs a price for model "my-model"');
  });
});
