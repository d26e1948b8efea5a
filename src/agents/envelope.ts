// The JSON envelope every role answers with (SPEC §4) and the zod shapes of
// Appendix A (A1–A5) of seeds/001, plus the gate and confirm answers.
import { z } from 'zod';

export const PRIORITIES = ['P0', 'P1', 'P2', 'P3'] as const;
export const prioritySchema = z.enum(PRIORITIES);
export type Priority = z.infer<typeof prioritySchema>;

const issueCountsSchema = z.object({
  p0_blocking: z.number().int().nonnegative(),
  p1_critical: z.number().int().nonnegative(),
  p2_important: z.number().int().nonnegative(),
  p3_suggestion: z.number().int().nonnegative(),
});

// A1. Agents may omit optional prose; ids are recomputed by the action, so the
// agent-provided id is advisory only.
export const findingSchema = z.object({
  id: z.string().optional(),
  priority: prioritySchema,
  category: z.string().min(1),
  file: z.string().nullable().optional(),
  line: z.number().int().nullable().optional(),
  title: z.string().min(1),
  description: z.string().default(''),
  suggestion: z.string().nullable().optional(),
  source: z
    .object({
      type: z.enum(['agent', 'human']).default('agent'),
      name: z.string().optional(),
      reviewId: z.union([z.string(), z.number()]).nullable().optional(),
      timestamp: z.string().nullable().optional(),
    })
    .partial()
    .optional(),
});
export type RawFinding = z.infer<typeof findingSchema>;

// A2
export const reviewerResultSchema = z.object({
  agent: z.string().optional(),
  prNumber: z.number().int().optional(),
  conclusion: z.enum(['approve', 'request_changes', 'needs_major_work']),
  issues: issueCountsSchema.optional(),
  findings: z.array(findingSchema),
  fullReport: z.string().default(''),
});
export type ReviewerResult = z.infer<typeof reviewerResultSchema>;

// A3
export const analyzerResultSchema = z.object({
  agent: z.string().optional(),
  prNumber: z.number().int().optional(),
  reviewState: z
    .object({
      hasChangesRequested: z.boolean(),
      changesRequestedBy: z.array(z.object({ login: z.string(), association: z.string() })),
    })
    .optional(),
  stats: z
    .object({
      totalThreads: z.number().int().nonnegative(),
      resolvedThreads: z.number().int().nonnegative(),
      unresolvedThreads: z.number().int().nonnegative(),
    })
    .optional(),
  threadsTruncated: z.boolean().optional(),
  issues: issueCountsSchema.optional(),
  pendingIssues: z.array(findingSchema),
  fullReport: z.string().default(''),
});
export type AnalyzerResult = z.infer<typeof analyzerResultSchema>;

// A5
export const fixResultSchema = z.object({
  agent: z.string().optional(),
  prNumber: z.number().int().optional(),
  summary: z
    .object({ fixed: z.number().int(), rejected: z.number().int(), deferred: z.number().int().default(0) })
    .optional(),
  fixedIssues: z.array(
    z.object({ findingId: z.string(), commitSha: z.string().nullable().optional(), description: z.string().default('') }),
  ),
  rejectedIssues: z.array(z.object({ findingId: z.string(), reason: z.string() })),
  commits: z.array(z.object({ sha: z.string(), message: z.string() })).default([]),
});
export type FixResult = z.infer<typeof fixResultSchema>;

export const gateResultSchema = z.object({
  agent: z.string().optional(),
  decision: z.enum(['approve', 'request_changes']),
  requestedChanges: z.array(z.string()).default([]),
  summary: z.string().default(''),
});
export type GateResult = z.infer<typeof gateResultSchema>;

export const confirmResultSchema = z.object({
  agent: z.string().optional(),
  findingId: z.string(),
  confirmed: z.boolean(),
  testFile: z.string().nullable().optional(),
  explanation: z.string().default(''),
});
export type ConfirmResult = z.infer<typeof confirmResultSchema>;

export class EnvelopeError extends Error {}

/**
 * Takes the last BEGIN_JSON … END_JSON block of an agent's answer. The last one
 * wins because agents sometimes echo the template from the prompt before answering.
 */
export function extractEnvelope(text: string): unknown {
  const re = /BEGIN_JSON\s*([\s\S]*?)\s*END_JSON/g;
  let last: string | undefined;
  for (const m of text.matchAll(re)) last = m[1];
  if (last === undefined) throw new EnvelopeError('no BEGIN_JSON … END_JSON envelope in the answer');
  const body = last.replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  try {
    return JSON.parse(body);
  } catch (e) {
    throw new EnvelopeError(`envelope is not valid JSON: ${(e as Error).message}`);
  }
}

export function parseEnvelope<T>(text: string, schema: z.ZodType<T>): T {
  const raw = extractEnvelope(text);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new EnvelopeError(`envelope does not match the expected shape: ${issues}`);
  }
  return parsed.data;
}
