// The JSON envelope every role answers with, and the zod shapes of each role's answer: reviewer,
// analyzer, thread findings, fixer, gate and confirmer.
import * as z from 'zod';
import { PRIORITIES, priorityRank, type Priority } from '../domain/priority.js';

const prioritySchema = z.enum(PRIORITIES);

// Length caps on every field of an agent's answer. An agent is untrusted: a 5,000-
// character file name or a megabyte of title must not reach the reports, the hidden state or
// the annotations whole. An oversize string is CUT with TRUNCATED_MARK rather than the item
// rejected: one verbose field must not lose a real finding (or fail the whole answer), and the
// mark shows readers it was cut. An oversize list keeps its first items; for findings, the
// most severe ones. Real answers are far below every cap.
export const TRUNCATED_MARK = '…[truncated]';
/** Ids, names, logins, shas, timestamps. */
export const MAX_ID_CHARS = 200;
export const MAX_CATEGORY_CHARS = 100;
export const MAX_TITLE_CHARS = 500;
/** Far above any real repository path (Linux's PATH_MAX is 4,096 bytes; real ones are a few dozen). */
export const MAX_PATH_CHARS = 1_024;
/** Descriptions, suggestions, reasons, explanations, summaries, commit messages. */
export const MAX_TEXT_CHARS = 20_000;
export const MAX_REPORT_CHARS = 100_000;
/** Findings (or pending issues) per answer. */
export const MAX_FINDINGS = 200;
/** Places of one finding (one problem repeated in several spots); past it, the first ones are kept. */
export const MAX_LOCATIONS = 20;
/** Any other list: fixed and rejected issues, commits, requested changes, reviewers. */
export const MAX_LIST_ITEMS = 200;

/** At most `max` UTF-16 units, the mark included; never half a surrogate pair (an emoji). */
function truncateField(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - TRUNCATED_MARK.length;
  if (/[\uD800-\uDBFF]/.test(text[cut - 1] ?? '')) cut--;
  return text.slice(0, cut) + TRUNCATED_MARK;
}

const capped = (max: number) => z.string().transform((s) => truncateField(s, max));
const cappedNonEmpty = (max: number) =>
  z
    .string()
    .min(1)
    .transform((s) => truncateField(s, max));
const cappedList = <T extends z.ZodType>(item: T) => z.array(item).transform((xs) => xs.slice(0, MAX_LIST_ITEMS));

/** The MAX_FINDINGS most severe findings, in the order the agent gave them. */
function mostSevere<T extends { priority: Priority }>(findings: T[]): T[] {
  if (findings.length <= MAX_FINDINGS) return findings;
  const rank = (f: T) => priorityRank(f.priority);
  const kept = new Set(
    findings
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .slice(0, MAX_FINDINGS)
      .map((x) => x.i),
  );
  return findings.filter((_f, i) => kept.has(i));
}

const issueCountsSchema = z.object({
  p0_blocking: z.number().int().nonnegative(),
  p1_critical: z.number().int().nonnegative(),
  p2_important: z.number().int().nonnegative(),
  p3_suggestion: z.number().int().nonnegative(),
});

/** One place of a finding: the same problem at another file or line, with its own replacement. */
const locationSchema = z.object({
  file: capped(MAX_PATH_CHARS).nullable(),
  line: z.number().int().nullable().optional(),
  endLine: z.number().int().nullable().optional(),
  replacement: capped(MAX_TEXT_CHARS).nullable().optional(),
});

/** A question for the maintainers and its options, numbered from 1 in the order given. */
const decisionAskSchema = z.object({
  question: cappedNonEmpty(MAX_TEXT_CHARS),
  options: z
    .array(cappedNonEmpty(MAX_TEXT_CHARS))
    .min(2)
    .transform((xs) => xs.slice(0, MAX_DECISION_OPTIONS)),
});
/** More options than this are cut: a person picks one by its number. */
export const MAX_DECISION_OPTIONS = 6;

// A1. Agents may omit optional prose; ids are recomputed by the action, so the
// agent-provided id is advisory only.
export const findingSchema = z.object({
  id: capped(MAX_ID_CHARS).optional(),
  priority: prioritySchema,
  category: cappedNonEmpty(MAX_CATEGORY_CHARS),
  file: capped(MAX_PATH_CHARS).nullable().optional(),
  line: z.number().int().nullable().optional(),
  /** The last line of the range the finding is about. */
  endLine: z.number().int().nullable().optional(),
  title: cappedNonEmpty(MAX_TITLE_CHARS),
  description: capped(MAX_TEXT_CHARS).default(''),
  suggestion: capped(MAX_TEXT_CHARS).nullable().optional(),
  /** The exact new text of lines line..endLine (a committable suggestion); additive. */
  replacement: capped(MAX_TEXT_CHARS).nullable().optional(),
  /**
   * Every place of one problem found in several spots. The top-level place, when it names a file,
   * is the first; without one, the first location is (review/finding-places.ts).
   */
  locations: z
    .array(locationSchema)
    .transform((xs) => xs.slice(0, MAX_LOCATIONS))
    .nullable()
    .optional(),
  /**
   * The reviewer's mark: this is a choice only the maintainers can make (review/decisions.ts decides
   * whether enough reviewers marked it), with the options it sees.
   */
  decision: decisionAskSchema.nullable().optional(),
  source: z
    .object({
      type: z.enum(['agent', 'human']).default('agent'),
      name: capped(MAX_ID_CHARS).optional(),
      reviewId: z
        .union([capped(MAX_ID_CHARS), z.number()])
        .nullable()
        .optional(),
      timestamp: capped(MAX_ID_CHARS).nullable().optional(),
    })
    .partial()
    .optional(),
});
export type RawFinding = z.infer<typeof findingSchema>;
const findingsSchema = z.array(findingSchema).transform(mostSevere);

// A2
export const reviewerResultSchema = z.object({
  agent: capped(MAX_ID_CHARS).optional(),
  prNumber: z.number().int().optional(),
  conclusion: z.enum(['approve', 'request_changes', 'needs_major_work']),
  issues: issueCountsSchema.optional(),
  findings: findingsSchema,
  fullReport: capped(MAX_REPORT_CHARS).default(''),
});

// A3
export const analyzerResultSchema = z.object({
  agent: capped(MAX_ID_CHARS).optional(),
  prNumber: z.number().int().optional(),
  reviewState: z
    .object({
      hasChangesRequested: z.boolean(),
      changesRequestedBy: cappedList(z.object({ login: capped(MAX_ID_CHARS), association: capped(MAX_ID_CHARS) })),
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
  pendingIssues: findingsSchema,
  fullReport: capped(MAX_REPORT_CHARS).default(''),
});

// A5
export const fixResultSchema = z.object({
  agent: capped(MAX_ID_CHARS).optional(),
  prNumber: z.number().int().optional(),
  summary: z
    .object({ fixed: z.number().int(), rejected: z.number().int(), deferred: z.number().int().default(0) })
    .optional(),
  fixedIssues: cappedList(
    z.object({
      findingId: capped(MAX_ID_CHARS),
      commitSha: capped(MAX_ID_CHARS).nullable().optional(),
      description: capped(MAX_TEXT_CHARS).default(''),
    }),
  ),
  rejectedIssues: cappedList(z.object({ findingId: capped(MAX_ID_CHARS), reason: capped(MAX_TEXT_CHARS) })),
  // Not done, and not wrong: an optional issue left for later, or a duplicate of another id.
  deferredIssues: cappedList(z.object({ findingId: capped(MAX_ID_CHARS), reason: capped(MAX_TEXT_CHARS) })).default([]),
  // Handed back: a choice only the maintainers can make, with the options the fixer sees.
  decisionIssues: cappedList(z.object({ findingId: capped(MAX_ID_CHARS) }).extend(decisionAskSchema.shape)).default([]),
  commits: cappedList(z.object({ sha: capped(MAX_ID_CHARS), message: capped(MAX_TEXT_CHARS) })).default([]),
});
export type FixResult = z.infer<typeof fixResultSchema>;

export const gateResultSchema = z.object({
  agent: capped(MAX_ID_CHARS).optional(),
  decision: z.enum(['approve', 'request_changes']),
  requestedChanges: cappedList(capped(MAX_TEXT_CHARS)).default([]),
  summary: capped(MAX_TEXT_CHARS).default(''),
});

/** The answerer's answer to a person's reply in the thread of a finding (review/thread-answers.ts). */
export const answerResultSchema = z.object({
  agent: capped(MAX_ID_CHARS).optional(),
  stance: z.enum(['concede', 'explain', 'fixing']),
  answer: cappedNonEmpty(MAX_TEXT_CHARS),
});

export const confirmResultSchema = z.object({
  agent: capped(MAX_ID_CHARS).optional(),
  findingId: capped(MAX_ID_CHARS),
  confirmed: z.boolean(),
  testFile: capped(MAX_PATH_CHARS).nullable().optional(),
  /** The test's name, as the project's test runner shows it. */
  testName: capped(MAX_TITLE_CHARS).nullable().optional(),
  /** The shell command, from the repository root, that runs just that test. */
  testCommand: capped(MAX_PATH_CHARS).nullable().optional(),
  explanation: capped(MAX_TEXT_CHARS).default(''),
});
export type ConfirmResult = z.infer<typeof confirmResultSchema>;

class EnvelopeError extends Error {}

/**
 * Takes the last BEGIN_JSON … END_JSON block of an agent's answer. The last one
 * wins because agents sometimes echo the template from the prompt before answering.
 */
function extractEnvelope(text: string): unknown {
  // indexOf, not /BEGIN_JSON\s*([\s\S]*?)\s*END_JSON/g: after a BEGIN_JSON with no END_JSON that
  // regex backtracks through every split of the blanks that follow (cubic in an answer's length).
  let last: string | undefined;
  for (let at = 0; ;) {
    const begin = text.indexOf('BEGIN_JSON', at);
    const end = begin < 0 ? -1 : text.indexOf('END_JSON', begin + 'BEGIN_JSON'.length);
    if (end < 0) break;
    last = text.slice(begin + 'BEGIN_JSON'.length, end).trim();
    at = end + 'END_JSON'.length;
  }
  if (last === undefined) throw new EnvelopeError('no BEGIN_JSON … END_JSON envelope in the answer');
  // endsWith + trimEnd, not /\s*```$/, which retries from every blank of a run not ending in ```.
  const opened = last.replace(/^```(?:json)?\s*/i, '');
  const body = opened.endsWith('```') ? opened.slice(0, -3).trimEnd() : opened;
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
