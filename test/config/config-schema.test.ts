// The JSON Schema editors check .github/pr-review-loop.yml with (schema/pr-review-loop.schema.json):
// generated from the zod schema the action parses the file with, committed as generated, and never
// stricter than the action: whatever config the action accepts, the schema accepts too, checked
// with ajv (a JSON Schema validator as editors use) on the configs of the docs and examples and on
// every input with values of every form, in `defaults` and in a preset.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { configSchemaText, schemaUrl, SCHEMA_FILE } from '../../scripts/gen-config-schema.js';
import { ConfigError } from '../../src/config/errors.js';
import { OTHER_CASES } from '../../src/config/file-forms.js';
import { asInputString } from '../../src/config/input-layer.js';
import { INPUT_NAMES, inputSchemaShape, type InputName } from '../../src/config/inputs.js';
import { parseRepoConfig, resolveConfig } from '../../src/config/repo-config.js';
import { repoConfigSchema } from '../../src/config/repo-config-schema.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const schema = JSON.parse(read(SCHEMA_FILE)) as { properties: object; definitions: { inputs: { properties: object } } };
// Union types (`type: [string, number]`) are plain JSON Schema; ajv's strict mode only asks to allow them.
const validate = new Ajv({ allowUnionTypes: true }).compile(schema);
const FILE_INPUTS = Object.keys(schema.definitions.inputs.properties);

/** Whether the action takes the file (as text), with these workflow inputs. */
function actionAccepts(text: string, inputs: Record<string, string> = {}): boolean {
  try {
    resolveConfig({ inputs: { 'github-token': 'ghs_fromTheRunner', ...inputs }, repoConfigText: text });
    return true;
  } catch (error) {
    if (error instanceof ConfigError) return false;
    throw error;
  }
}

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : [],
  );
}

/** The repository configs the docs show: YAML blocks whose keys are all the file's own keys. */
function configsInDocs(): { where: string; text: string }[] {
  const keys = Object.keys(schema.properties);
  return ['README.md', 'examples/README.md', ...markdownFiles('docs')].flatMap((file) =>
    [...read(file).matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].flatMap((m) => {
      const data: unknown = YAML.parse(m[1]!);
      const isConfig = data !== null && typeof data === 'object' && Object.keys(data).every((k) => keys.includes(k));
      const line = read(file).slice(0, m.index).split('\n').length;
      return isConfig ? [{ where: `${file}:${line}`, text: m[1]! }] : [];
    }),
  );
}

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
}

/**
 * String literals of TypeScript source: quoted on one line (so a stray apostrophe in a comment
 * pairs with nothing past its line), or a template without placeholders or escapes.
 */
const LITERAL = String.raw`'((?:[^'\\\n]|\\.)*)'|\`([^\`$\\]*)\``;
const unescape = (body: string) => body.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t' })[c] ?? c);
const literals = (source: string) =>
  [...source.matchAll(new RegExp(LITERAL, 'g'))].map((m) => ({
    index: m.index,
    text: m[1] === undefined ? m[2]! : unescape(m[1]),
  }));

/**
 * The repository configs the tests write out: a string literal, or an array of them joined by
 * newlines, whose text opens with a key of the file (a line of such an array counts alone too).
 */
function configsInTests(): { where: string; text: string }[] {
  const opens = new RegExp(`^\\n?(?:${Object.keys(schema.properties).join('|')}):`);
  const joined = new RegExp(String.raw`\[((?:\s*(?:${LITERAL}),?(?:[ \t]*//[^\n]*)?)+)\s*\]\.join\('\\n'\)`, 'g');
  return testFiles('test').flatMap((file) => {
    const source = read(file);
    const where = (index: number) => `${file}:${source.slice(0, index).split('\n').length}`;
    const texts = [
      ...literals(source),
      ...[...source.matchAll(joined)].map((m) => ({
        index: m.index,
        text: literals(m[1]!)
          .map((l) => l.text)
          .join('\n'),
      })),
    ];
    return texts.filter(({ text }) => opens.test(text)).map(({ index, text }) => ({ where: where(index), text }));
  });
}

/** Whether the action takes the file by itself (the workflow's inputs aside). */
function fileAccepted(text: string): boolean {
  try {
    parseRepoConfig(text, 'f.yml');
    return true;
  } catch (error) {
    if (error instanceof ConfigError) return false;
    throw error;
  }
}

describe(SCHEMA_FILE, () => {
  it('is what scripts/gen-config-schema.ts generates from the zod schema and action.yml', () => {
    const regenerate = 'stale: run node scripts/run-ts.mjs scripts/gen-config-schema.ts';
    expect(read(SCHEMA_FILE), regenerate).toBe(configSchemaText(read('action.yml'), read('package.json')));
  });

  it('is named, pinned to the v1 tag, where the docs tell editors to read it', () => {
    const url = schemaUrl(read('package.json'));
    expect(url).toBe(`https://raw.githubusercontent.com/org/pr-review-loop/v1/${SCHEMA_FILE}`);
    const modeline = `# yaml-language-server: $schema=${url}`;
    for (const file of ['README.md', 'docs/repository-config.md', 'examples/repo-config.yml']) {
      expect(read(file), file).toContain(modeline);
    }
  });

  // The patterns that take a choice in any letter case (src/config/file-forms.ts) list the other
  // ways to write each letter: every code point that lower-cases to ASCII text.
  it('knows every code point that lower-cases to ASCII text', () => {
    const others: Record<string, string> = {};
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      const lower = String.fromCodePoint(cp).toLowerCase();
      if (/^[\x00-\x7f]+$/.test(lower)) others[lower] = (others[lower] ?? '') + String.fromCodePoint(cp);
    }
    expect(others).toEqual(OTHER_CASES);
    expect(validate({ defaults: { 'fail-on': ' p1 ', agent: 'CODEX', 'dry-run': 'True' } })).toBe(true);
  });

  it('lets the file set exactly the inputs the action takes from it', () => {
    const refusedByAction = INPUT_NAMES.filter((name) => {
      try {
        parseRepoConfig(YAML.stringify({ defaults: { [name]: null } }), 'f.yml');
        return false;
      } catch (error) {
        if (error instanceof ConfigError) return true;
        throw error;
      }
    });
    expect(FILE_INPUTS.sort()).toEqual(INPUT_NAMES.filter((n) => !refusedByAction.includes(n)).sort());
    expect(refusedByAction).toContain('github-token');
    expect(validate({ defaults: { 'github-token': 'x' } })).toBe(false);
    expect(validate({ defaults: { 'max-round': 3 } })).toBe(false);
  });

  it('accepts every repository config of the docs and examples, which the action accepts', () => {
    const configs = [
      ...configsInDocs(),
      { where: 'examples/repo-config.yml', text: read('examples/repo-config.yml') },
      { where: 'test/fixtures/repo-config-full.yml', text: read('test/fixtures/repo-config-full.yml') },
    ];
    expect(configs.length).toBeGreaterThanOrEqual(5);
    for (const { where, text } of configs) {
      expect(actionAccepts(text, { mode: 'review' }), where).toBe(true);
      expect(validate(YAML.parse(text) ?? {}), `${where} ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  // Values of every form an input may take, and some no input takes.
  const VALUES: unknown[] = [
    ...[null, '', ' ', 0, 1, 3, 10, 11, 360, 361, 2.5, -1, 1e21, '3', ' 3 ', '03', '3.0', '2.50', 0.5, '0.5'],
    ...[true, false, 'true', 'FALSE', ' True ', 'yes', 'fix', 'Review', 'REVIEW', 'fxi', 'none', 'None', 'P0', 'p1'],
    ...['P2', 'P3', 'auto', 'Required', 'off', 'claude', 'CODEX', 'command', 'claude-sonnet-4-5'],
    ...['claude:claude-sonnet-4-5', 'codex:gpt-5-codex || claude:claude-opus-4-1', 'nope:model'],
    ...[['claude:claude-sonnet-4-5', 'codex:gpt-5-codex'], ['claude-sonnet-4-5'], [], [1, 2], [true]],
    ...['npm test', ['npm ci', 'npm test'], 'npm ci\nnpm test', ['none'], [{ run: 'x' }], [['a']]],
    ...['ci.yml', ['ci.yml', 'lint'], 'ci.yml, lint.yml', [123], 'renovate[bot]', ['renovate[bot]', 'bot two']],
    ...['.github/review.yml', 'strict', 'ready-for-human-review', 'x'.repeat(51), '/abs'],
    ...[{ claude: { model: 'x' } }, { codex: { model_provider: 'azure' } }, { nope: {} }, { claude: 'x' }],
    ...['codex:\n  model_provider: azure', '{"codex": {"model_provider": "azure"}}', { claude: null }],
    ...[{ claude: '2.1.330', codex: 'latest' }, { claude: true }, { claude: 2 }, 'claude@2.1.330'],
    ...[['claude@2.1.330', 'codex@0.169.0'], 'claude: 2.1.330', { 'my-model': { input: 3, output: 15 } }],
    ...[{ m: { input: 0, output: 0 } }, { m: { input: 3 } }, { m: { input: '3', output: 1 } }],
    ...['my-model: {input: 3, output: 15}', {}, { a: 1 }],
  ];

  /**
   * Whether the action takes the value of `name` in the file: the file's own schema, then the
   * input's parser on the value as the input's text. What resolveConfig accepts passes both (the
   * checks of the merged layers only refuse more), at a fraction of its cost for thousands of values.
   */
  function fileAndParserAccept(config: unknown, name: InputName, value: unknown): boolean {
    if (!repoConfigSchema.safeParse(config).success) return false;
    return inputSchemaShape[name].safeParse(asInputString(value)?.trim() || undefined).success;
  }

  const layersOf = (name: string, value: unknown) => [
    { config: { defaults: { [name]: value } }, inputs: {} },
    { config: { presets: { p: { [name]: value } } }, inputs: { preset: 'p' } },
  ];

  it('accepts every repository config the tests write that the action accepts', () => {
    const configs = configsInTests();
    const accepted = configs.filter(({ text }) => fileAccepted(text));
    // Most are configs the action takes; the rest are the tests' broken ones.
    expect(accepted.length).toBeGreaterThanOrEqual(10);
    expect(configs.length - accepted.length).toBeGreaterThanOrEqual(5);
    for (const { where, text } of accepted) {
      expect(validate(YAML.parse(text) ?? {}), `${where} ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('accepts every value of every input the action accepts, in defaults or a preset', () => {
    const verdicts = { both: 0, neither: 0, onlySchema: 0 };
    const stricter: string[] = [];
    FILE_INPUTS.forEach((name, n) => {
      VALUES.forEach((value, i) => {
        // Defaults and presets take the same inputs: each pair is tried in one of them, in turn.
        const { config } = layersOf(name, value)[(n + i) % 2]!;
        const [byAction, bySchema] = [fileAndParserAccept(config, name as InputName, value), validate(config)];
        if (byAction && !bySchema) stricter.push(`${JSON.stringify(config)}: ${validate.errors?.[0]?.message}`);
        else if (byAction) verdicts.both++;
        else if (bySchema) verdicts.onlySchema++;
        else verdicts.neither++;
      });
    });
    expect(stricter).toEqual([]);
    // The check can tell: many values pass both, many fail both, and some only the action refuses
    // (docs/repository-config.md lists those checks).
    expect(verdicts.both).toBeGreaterThan(300);
    expect(verdicts.neither).toBeGreaterThan(1000);
    expect(verdicts.onlySchema).toBeGreaterThan(100);
  });

  // A form may refuse what the input's parser would take from its text only on purpose: one value
  // in a list (`mode: [review]`) or a map where text is meant. An input that takes several lines
  // (commands, entries) must take a YAML list of them: a new input built with `field()` gets
  // the one-value form unless it says otherwise (src/config/file-forms.ts).
  it('takes a list of two or more items wherever the input takes several lines', () => {
    const lists = VALUES.filter((v): v is unknown[] => Array.isArray(v) && v.length >= 2);
    const refused: string[] = [];
    let takesLines = 0;
    for (const name of FILE_INPUTS as InputName[]) {
      for (const list of lists.filter((l) => l.every((item) => typeof item !== 'object'))) {
        if (!inputSchemaShape[name].safeParse(list.join('\n')).success) continue;
        takesLines++;
        if (!repoConfigSchema.safeParse({ defaults: { [name]: list } }).success) refused.push(`${name}: ${list}`);
      }
    }
    expect(refused).toEqual([]);
    expect(takesLines).toBeGreaterThan(10);
  });

  it('judges as the whole action does: what a run accepts, the quick check above accepts', () => {
    // A sample through resolveConfig from the YAML text (a few ms each): every 15th value of each
    // input, a different 15th for each, in turn in defaults and in a preset.
    let accepted = 0;
    FILE_INPUTS.forEach((name, n) => {
      VALUES.filter((_, i) => i % 15 === n % 15).forEach((value, i) => {
        const base = name === 'mode' || name === 'verify' ? { verify: 'none' } : { mode: 'review' };
        const { config, inputs } = layersOf(name, value)[i % 2]!;
        if (!actionAccepts(YAML.stringify(config), { ...base, ...inputs })) return;
        accepted++;
        expect(fileAndParserAccept(config, name as InputName, value), JSON.stringify(config)).toBe(true);
      });
    });
    expect(accepted).toBeGreaterThan(30);
  });
});
