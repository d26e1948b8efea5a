// Writes schema/pr-review-loop.schema.json, the JSON Schema editors check the repository config
// (.github/pr-review-loop.yml) with: zod's JSON Schema of the input side of the very schema the
// action parses the file with (src/config/repo-config-schema.ts), so the two cannot drift. Each
// input's description is the one action.yml gives it. `--check` only reports a difference (exit 1).
// Usage: node scripts/run-ts.mjs scripts/gen-config-schema.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import YAML from 'yaml';
import * as z from 'zod';
import { repoConfigSchema } from '../src/config/repo-config-schema.js';

export const SCHEMA_FILE = 'schema/pr-review-loop.schema.json';

/** Where the schema of a release is read from: the file at the `v1` tag of the repository. */
export function schemaUrl(packageJson: string): string {
  const url = (JSON.parse(packageJson) as { repository: { url: string } }).repository.url;
  const repo = /github\.com[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(url)?.[1];
  if (!repo) throw new Error(`package.json repository.url is not a GitHub repository: ${url}`);
  return `https://raw.githubusercontent.com/${repo}/v1/${SCHEMA_FILE}`;
}

type JsonSchema = { properties?: Record<string, { description?: string }>; [key: string]: unknown };

/** The schema's text, from action.yml's and package.json's text. */
export function configSchemaText(actionYml: string, packageJson: string): string {
  const generated = z.toJSONSchema(repoConfigSchema, { io: 'input', target: 'draft-7' }) as JsonSchema;
  const inputs = (generated.definitions as Record<string, JsonSchema>).inputs!;
  const described = YAML.parse(actionYml).inputs as Record<string, { description: string }>;
  for (const [name, property] of Object.entries(inputs.properties ?? {})) {
    const description = described[name]?.description;
    if (!description) throw new Error(`action.yml has no description for input ${name}`);
    // In the file these are where they belong, not deprecated.
    property.description = description.replace(/^Deprecated: set it in the repository config\. /, '');
  }
  const { $schema, ...rest } = generated;
  const schema = {
    $schema,
    $id: schemaUrl(packageJson),
    title: 'pr-review-loop repository config',
    description: 'The repository config of pr-review-loop (.github/pr-review-loop.yml), read from the base branch.',
    ...rest,
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const root = process.cwd();
  const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
  const text = configSchemaText(read('action.yml'), read('package.json'));
  let before = '';
  try {
    before = read(SCHEMA_FILE);
  } catch {
    // Not written yet.
  }
  if (text === before) process.exit(0);
  if (process.argv.includes('--check')) {
    console.error(
      `${SCHEMA_FILE} differs from src/config/repo-config-schema.ts; run: ` +
        'node scripts/run-ts.mjs scripts/gen-config-schema.ts',
    );
    process.exit(1);
  }
  writeFileSync(path.join(root, SCHEMA_FILE), text);
  console.log(`${SCHEMA_FILE} written from src/config/repo-config-schema.ts and action.yml`);
}
