// A `defaults` or preset block of the repo config: the same kebab-case keys as the inputs, each in
// the forms file-forms.ts gives it, turned into the strings the runner would pass, so one schema
// validates every layer.
import * as z from 'zod';
import { fileFormOf } from './file-forms.js';
import { INPUT_NAMES, inputSchemaShape, type InputName, type RawInputs } from './inputs.js';

/**
 * Inputs the repo config may not set: the token and the switches that widen what a run may do
 * stay in the workflow file; `pr`, `config-file` and `preset` choose what the file is applied to.
 */
const WORKFLOW_ONLY: readonly InputName[] = [
  'github-token',
  'allow-fork-fixes',
  'agent-command',
  // Turning isolation off or handing secrets to PR code widens what a run may do.
  'isolation',
  // Raising a call's bounds lets PR code take more of the runner.
  'call-limits',
  // Setup's variables reach PR code that runs before any review.
  'setup-env',
  'verify-env',
  'agent-env',
  // Showing more of the runner's HOME to PR code widens what a run may do.
  'home-folders',
  'pr',
  'config-file',
  'preset',
];

/** A YAML value as the string an input would carry: lists one item a line, maps as JSON. */
export function asInputString(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join('\n');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export const isWorkflowOnly = (name: string) => (WORKFLOW_ONLY as readonly string[]).includes(name);

/** The inputs a layer may set, each in the forms the file may write it; null sets nothing. */
const layerShape = Object.fromEntries(
  INPUT_NAMES.filter((name) => !isWorkflowOnly(name)).map((name) => [
    name,
    fileFormOf(inputSchemaShape[name]).schema.nullable().optional(),
  ]),
);

export const inputLayer = z
  .strictObject(layerShape)
  .transform((layer): RawInputs => {
    const raw: RawInputs = {};
    for (const [key, value] of Object.entries(layer)) {
      // An empty value (YAML null) sets nothing, as if the key were absent.
      const text = asInputString(value);
      if (text !== undefined) raw[key as InputName] = text;
    }
    return raw;
  })
  .meta({ id: 'inputs', description: 'Action inputs, as a workflow would give them (docs/configuration.md).' });
