// A `defaults` or preset block of the repo config: the same kebab-case keys as the inputs,
// turned into the strings the runner would pass, so one schema validates every layer.
import * as z from 'zod';
import { INPUT_NAMES, type InputName, type RawInputs } from './inputs.js';

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
  'verify-env',
  'agent-env',
  // Showing more of the runner's HOME to PR code widens what a run may do.
  'home-folders',
  'pr',
  'config-file',
  'preset',
];

/** A YAML value as the string an input would carry: lists one item a line, maps as JSON. */
function asInputString(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join('\n');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export const inputLayer = z.record(z.string(), z.unknown()).transform((layer, ctx): RawInputs => {
  const raw: RawInputs = {};
  for (const [key, value] of Object.entries(layer)) {
    if (!(INPUT_NAMES as string[]).includes(key)) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: 'is not an action input (see the inputs in docs/configuration.md)',
      });
    } else if (WORKFLOW_ONLY.includes(key as InputName)) {
      ctx.addIssue({ code: 'custom', path: [key], message: 'can only be set in the workflow file, as an input' });
    } else {
      // An empty value (YAML null) sets nothing, as if the key were absent.
      const text = asInputString(value);
      if (text !== undefined) raw[key as InputName] = text;
    }
  }
  return raw;
});
