// The configurations to compare: each is the action's inputs (as a workflow's `with:` would give
// them) and the names of the variables, such as API keys, passed from your shell to the action's
// step (as a workflow's `env:` would). Read from a YAML or JSON file.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';

const configuration = z.strictObject({
  name: z.string().regex(/^[\w.-]+$/, 'letters, digits, ".", "_" or "-"'),
  inputs: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  env: z.array(z.string().regex(/^[A-Za-z_]\w*$/, 'a variable name')).default([]),
  /** The action is killed past this (default 60 minutes), so one hung case does not stop the rest. */
  timeoutMinutes: z.number().positive().default(60),
});

const file = z.strictObject({
  configurations: z.array(configuration).min(1),
  /** Case names under the cases folder; default all. */
  cases: z.array(z.string()).optional(),
});

export interface Configuration {
  name: string;
  inputs: Record<string, string>;
  /** The variables the action's step gets, read from this process's environment. */
  env: Record<string, string>;
  timeoutMinutes: number;
}

const EXAMPLE = `configurations:
  - name: two-claudes
    inputs:
      agent: claude
      reviewers: |
        claude-sonnet-4-5
        claude-opus-4-1
      max-rounds: 3
    env: [ANTHROPIC_API_KEY]`;

export function readConfigurations(
  path: string,
  environment: NodeJS.ProcessEnv,
): { configurations: Configuration[]; cases?: string[] } {
  let raw: unknown;
  try {
    raw = parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`--config ${path}: cannot read it (${(e as Error).message}); a valid file:\n${EXAMPLE}`);
  }
  const parsed = file.safeParse(raw);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
    throw new Error(`--config ${path}: ${why}; a valid file:\n${EXAMPLE}`);
  }
  const names = new Set<string>();
  const configurations = parsed.data.configurations.map((c) => {
    if (names.has(c.name)) throw new Error(`--config ${path}: two configurations are named ${c.name}`);
    names.add(c.name);
    const env: Record<string, string> = {};
    for (const name of c.env) {
      const value = environment[name];
      if (value === undefined) {
        throw new Error(`--config ${path}: configuration ${c.name} passes ${name}, which is not set here (export it)`);
      }
      env[name] = value;
    }
    const inputs = Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, String(v)]));
    return { name: c.name, inputs, env, timeoutMinutes: c.timeoutMinutes };
  });
  return { configurations, ...(parsed.data.cases ? { cases: parsed.data.cases } : {}) };
}
