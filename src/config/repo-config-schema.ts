// The repository config file's zod schema: what the action accepts, and, through zod's JSON Schema
// of its input side (scripts/gen-config-schema.ts), what an editor checks as people type. The
// descriptions here end up in that JSON Schema.
import * as z from 'zod';
import { inputLayer } from './input-layer.js';

export const HOOK_POINTS = ['before-review', 'after-review', 'after-fix', 'after-finish'] as const;
export type HookPoint = (typeof HOOK_POINTS)[number];

/** Hook commands and path globs: one string or a list of them. */
const strings = z.union([z.string(), z.array(z.string())]).transform((v) => (typeof v === 'string' ? [v] : v));

const hook = (description: string) => strings.default(() => []).meta({ description });

export const repoConfigSchema = z.strictObject({
  presets: z
    .record(z.string().regex(/^[\w.-]+$/, 'preset names use letters, digits, ., _ and -'), inputLayer)
    .default(() => ({}))
    .meta({ description: 'Named sets of inputs; the workflow picks one with the `preset` input.' }),
  defaults: inputLayer
    .default(() => ({}))
    .meta({ description: "Inputs for every run, over the built-in defaults and under a preset and the workflow's." }),
  hooks: z
    .strictObject({
      'before-review': hook('Commands before each review round; may add findings.'),
      'after-review': hook('Commands after each review round; may add findings.'),
      'after-fix': hook('Commands after each fix, before it is pushed.'),
      'after-finish': hook('Commands when the run ends.'),
    })
    .default(() => ({ 'before-review': [], 'after-review': [], 'after-fix': [], 'after-finish': [] }))
    .meta({ description: 'Commands run in the sandbox at points of the run (docs/repository-config.md#hooks).' }),
  instructions: z.string().optional().meta({ description: 'Extra review instructions for the whole repository.' }),
  'rules-file': z
    .string()
    .regex(/^[^/\\]*$/, 'is a file name, not a path (e.g. REVIEW.md)')
    .default('REVIEW.md')
    .meta({ description: 'Name of the rules file of a folder (default REVIEW.md); "" turns rules per folder off.' }),
  paths: z
    .strictObject({ include: strings.default(() => []), exclude: strings.default(() => []) })
    .default(() => ({ include: [], exclude: [] }))
    .meta({ description: 'Globs of the changed files to review: include (all when empty), then exclude.' }),
  'decision-answerers': z
    .string()
    .regex(
      /^(write|maintain|admin|@?[\w.-]+\/[\w.-]+)$/,
      'is a permission level (write, maintain, admin) or a team (org/team), e.g. decision-answerers: maintain',
    )
    .optional()
    .meta({
      description:
        "Who may answer the maintainers' decisions (/review-loop decide): a permission level (write, maintain, " +
        "admin) or a team (org/team) the token can read; never the PR's author or anyone who pushed to it.",
    }),
});
