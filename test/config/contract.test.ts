// action.yml is the contract: its inputs, the zod schema and the tables of docs/configuration.md
// must list the same names in the same groups; its outputs, OUTPUT_NAMES and that page the same outputs.
// The agents table of docs/agents.md follows the pinned CLI versions and action.yml the same way.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { DEPRECATED_INPUTS } from '../../src/config/deprecated-inputs.js';
import { INPUT_NAMES, inputSchemaShape, parseInputs } from '../../src/config/inputs.js';
import { OUTPUT_NAMES, defaultOutputs } from '../../src/outputs.js';
import { DEFAULT_CALL_LIMITS, parseCallLimits } from '../../src/sandbox/call-limits.js';
import { RUN_STATUSES } from '../../src/domain/run-status.js';

const ROOT = join(import.meta.dirname, '..', '..');
const actionText = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const action = YAML.parse(actionText) as {
  runs: { using: string; main: string };
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
};
const configDoc = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');

/** Names in the first column of the table between the given markers. */
function tableNames(section: string): string[] {
  const body = configDoc.split(`<!-- ${section}:start -->`)[1]?.split(`<!-- ${section}:end -->`)[0] ?? '';
  return [...body.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
}

const camel = (name: string) => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

describe('action.yml contract', () => {
  it('runs the bundle on node24, and a post step after the job that removes what a killed run left', () => {
    expect(action.runs).toEqual({
      using: 'node24',
      main: 'dist/index.js',
      post: 'dist/post.js',
      'post-if': 'always()',
    });
  });

  it('declares exactly the inputs of the zod schema, and docs/configuration.md lists them in the same order', () => {
    expect(Object.keys(action.inputs)).toEqual(INPUT_NAMES);
    expect(Object.keys(inputSchemaShape)).toEqual(INPUT_NAMES);
    expect(tableNames('inputs')).toEqual(INPUT_NAMES);
  });

  it('declares exactly OUTPUT_NAMES, and docs/configuration.md lists them', () => {
    expect(Object.keys(action.outputs)).toEqual([...OUTPUT_NAMES]);
    expect(tableNames('outputs')).toEqual([...OUTPUT_NAMES]);
    expect(Object.keys(defaultOutputs())).toEqual([...OUTPUT_NAMES]);
  });

  it('maps every input to one Config field', () => {
    const config = parseInputs((name) => (name === 'github-token' ? 't' : undefined));
    expect(Object.keys(config).sort()).toEqual(INPUT_NAMES.map(camel).sort());
  });

  it('has no default but the token, so user values can be told from defaults', () => {
    for (const [name, spec] of Object.entries(action.inputs)) {
      expect(spec.required, name).toBe(false);
      expect(spec.default, name).toBe(name === 'github-token' ? '${{ github.token }}' : undefined);
    }
  });

  // The runner evaluates expressions in action.yml descriptions and fails to load the action.
  it('has no expression in any description', () => {
    const described = [...Object.values(action.inputs), ...Object.values(action.outputs)];
    for (const { description } of described) expect(description).not.toContain('${{');
  });

  it('documents a default for every input that matches the built-in one', () => {
    const config = parseInputs((name) => (name === 'github-token' ? 't' : undefined)) as unknown as Record<
      string,
      unknown
    >;
    for (const [name, spec] of Object.entries(action.inputs)) {
      const documented = /Default: (.*?)\.?$/s.exec(spec.description)?.[1];
      expect(documented, name).toBeDefined();
      const literal = /^`([^`]*)`$/.exec(documented!)?.[1];
      // call-limits is read into numbers (a share of this machine's memory): compared as read.
      const actual = name === 'call-limits' ? DEFAULT_CALL_LIMITS : config[camel(name)];
      if (name === 'call-limits') expect(config.callLimits).toEqual(parseCallLimits(DEFAULT_CALL_LIMITS));
      if (literal !== undefined) expect(String(actual), name).toBe(literal);
      if (documented === 'none') expect([undefined, '[]', '{}'], name).toContain(actual && JSON.stringify(actual));
    }
  });

  // A workflow reading action.yml or the docs learns which inputs moved to the repository config.
  it('groups exactly the deprecated inputs under Deprecated, each saying where it moved', () => {
    const deprecated = actionText.split(/^  # group: Deprecated$/m)[1]?.split(/^outputs:$/m)[0] ?? '';
    expect([...deprecated.matchAll(/^  ([\w-]+):$/gm)].map((m) => m[1])).toEqual([...DEPRECATED_INPUTS]);
    const labelled = Object.entries(action.inputs).filter(([, spec]) => spec.description.startsWith('Deprecated:'));
    expect(labelled.map(([name]) => name)).toEqual([...DEPRECATED_INPUTS]);
    for (const [name, spec] of labelled) {
      expect(spec.description, name).toMatch(/^Deprecated: set it in the repository config\. /);
    }
    const table = configDoc.split('### Deprecated')[1]?.split('<!-- inputs:end -->')[0] ?? '';
    expect([...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1])).toEqual([...DEPRECATED_INPUTS]);
    const repoDoc = readFileSync(join(ROOT, 'docs/repository-config.md'), 'utf8');
    const tuning = repoDoc.split('## Tuning')[1]?.split(/^## /m)[0]?.split('```')[0] ?? '';
    expect([...tuning.matchAll(/`([\w-]+)`/g)].map((m) => m[1])).toEqual([...DEPRECATED_INPUTS]);
  });

  it('lists every status value in the status description', () => {
    for (const status of RUN_STATUSES) expect(action.outputs.status!.description).toContain(`\`${status}\``);
  });
});

describe('scripts/gen-config-tables.mjs', () => {
  const temp = mkdtempSync(join(tmpdir(), 'config-tables-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('groups the inputs as action.yml does, every group under its own heading', () => {
    const groups = [...actionText.matchAll(/^  # group: (.+)$/gm)].map((m) => m[1]);
    expect(groups).toEqual(['Run', 'Agents', 'Fixing', 'Budget', 'CI', 'Reporting', 'Safety', 'Deprecated']);
    const headings = [...configDoc.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(groups);
  });

  it('finds the committed page up to date', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'scripts/gen-config-tables.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('reports a drifted page and rewrites it from action.yml and the pinned CLI versions', () => {
    for (const dir of ['scripts', 'docs', 'src/agents']) mkdirSync(join(temp, dir), { recursive: true });
    for (const file of ['scripts/gen-config-tables.mjs', 'action.yml', 'src/agents/cli-versions.ts']) {
      cpSync(join(ROOT, file), join(temp, file));
    }
    symlinkSync(join(ROOT, 'node_modules'), join(temp, 'node_modules'));
    const page = join(temp, 'docs/configuration.md');
    writeFileSync(page, configDoc.replace(/^\| `max-rounds` \| `3` \|.*$/m, '| `max-rounds` | `7` | stale |'));
    // The agents table as it drifted before it was generated: a version and a default out of date.
    const agentsDoc = readFileSync(join(ROOT, 'docs/agents.md'), 'utf8');
    const agentsPage = join(temp, 'docs/agents.md');
    const staleAgents = agentsDoc
      .replace('`@openai/codex` 0.169.0', '`@openai/codex` 0.1.0')
      .replace('(default: `false`)', '(default: on)');
    expect(staleAgents).not.toBe(agentsDoc);
    writeFileSync(agentsPage, staleAgents);
    const script = join(temp, 'scripts/gen-config-tables.mjs');
    const check = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(check.status).toBe(1);
    expect(check.stderr).toContain('docs/configuration.md tables differ from action.yml');
    expect(check.stderr).toContain('docs/agents.md tables differ from src/agents/cli-versions.ts and action.yml');
    execFileSync(process.execPath, [script]);
    expect(readFileSync(page, 'utf8')).toBe(configDoc);
    expect(readFileSync(agentsPage, 'utf8')).toBe(agentsDoc);
    // A new pinned version reaches the page.
    const versions = join(temp, 'src/agents/cli-versions.ts');
    writeFileSync(versions, readFileSync(versions, 'utf8').replace("version: '0.169.0'", "version: '0.170.0'"));
    execFileSync(process.execPath, [script]);
    expect(readFileSync(agentsPage, 'utf8')).toContain('| `codex` | `@openai/codex` 0.170.0 |');
  });
});
