// The inputs only a workflow may set: what the repository config refuses (src/config/input-layer.ts,
// through parseRepoConfig) must be exactly what action.yml labels "Workflow only" and what
// docs/repository-config.md lists, so a user reading either learns the real rule.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import YAML from 'yaml';
import { ConfigError } from '../../src/config/errors.js';
import { parseRepoConfig } from '../../src/config/repo-config.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const inputs: Record<string, { description: string }> = YAML.parse(
  readFileSync(path.join(ROOT, 'action.yml'), 'utf8'),
).inputs;
const FILE = '.github/pr-review-loop.yml';

/** Whether the repository config refuses the input, in its `defaults` and in a preset. */
function refused(name: string): boolean {
  const where = { defaults: `defaults:\n  ${name}: x\n`, preset: `presets:\n  p:\n    ${name}: x\n` };
  const answers = Object.values(where).map((text) => {
    try {
      parseRepoConfig(text, FILE);
      return false;
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return error.problems.some((p) => p.includes(`${name} can only be set in the workflow file`));
    }
  });
  expect(new Set(answers).size, name).toBe(1);
  return answers[0]!;
}

const REFUSED = Object.keys(inputs).filter(refused);

it('the repository config refuses some inputs (the check can tell)', () => {
  expect(REFUSED).toContain('github-token');
  expect(REFUSED).not.toContain('max-rounds');
});

it('action.yml labels "Workflow only" exactly the inputs the repository config refuses', () => {
  const labelled = Object.entries(inputs)
    .filter(([, spec]) => /\bWorkflow only\b/.test(spec.description))
    .map(([name]) => name);
  expect(labelled).toEqual(REFUSED);
});

it('docs/repository-config.md lists exactly those inputs', () => {
  const page = readFileSync(path.join(ROOT, 'docs/repository-config.md'), 'utf8');
  const sentence = /The file cannot set ([^.]*)\./.exec(page.replace(/\s+/g, ' '))?.[1] ?? '';
  const listed = [...sentence.matchAll(/`([\w-]+)`/g)].map((m) => m[1]);
  expect(listed.sort()).toEqual([...REFUSED].sort());
});
