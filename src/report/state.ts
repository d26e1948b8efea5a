// The hidden, machine-readable state every comment carries (SPEC §7), so a later run
// knows which head was reviewed and which findings were reported fixed.
import { z } from 'zod';
import { MAX_COMMENT_CHARS, sanitize } from './sanitize.js';

export const MARKER = '<!-- pr-review-loop-marker -->';
const STATE_OPEN = '<!-- pr-review-loop-state: ';
const STATE_CLOSE = ' -->';

const stateSchema = z.object({
  v: z.literal(1),
  kind: z.enum(['review', 'fix', 'failure', 'final']),
  headSha: z.string(),
  round: z.number().int().nonnegative(),
  runId: z.string().nullable(),
  findingIds: z.array(z.string()),
  fixedIds: z.array(z.string()),
  stuckIds: z.array(z.string()),
  status: z.string().nullable(),
  /**
   * What each fixed finding was about, so a later run recognises it when it comes back at
   * a moved line or under a renamed file (ids alone change when lines move).
   */
  fixed: z
    .array(z.object({ id: z.string(), category: z.string(), file: z.string().nullable(), title: z.string() }))
    .optional(),
  /** Finding counts of the review this comment belongs to: a skipped rerun still enforces fail-on. */
  counts: z.object({ p0: z.number().int(), p1: z.number().int(), p2: z.number().int(), p3: z.number().int() }).optional(),
  /** The fix commit this run pushed: only that commit's trailer means "our own fix commit". */
  commitSha: z.string().optional(),
  /** The workflow job that wrote it (workflow name and job id). */
  job: z.string().optional(),
});
export type HiddenState = z.infer<typeof stateSchema>;

// Inside JSON string literals every character that could end the HTML comment (`--`,
// `>`), open markup, or form a secret-like pattern for the sanitizer (`=`, `:`, `/`,
// `@`, `-`) is written as a \uXXXX escape. JSON.parse reads it back unchanged.
const RISKY_IN_STRING = /[-<>=:@/&'`!+\u2028\u2029]/g;
const STRING_LITERAL = /"(?:[^"\\]|\\.)*"/g;

export function encodeState(s: HiddenState): string {
  const json = JSON.stringify(stateSchema.parse(s)).replace(STRING_LITERAL, (lit) =>
    lit.replace(RISKY_IN_STRING, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
  return `${STATE_OPEN}${json}${STATE_CLOSE}`;
}

/** The last hidden state in a comment body; null when there is none or it is not valid. */
export function decodeState(body: string): HiddenState | null {
  const re = /<!-- pr-review-loop-state: (\{[^<>]*?\}) -->/g;
  let last: string | undefined;
  for (const m of body.matchAll(re)) last = m[1];
  if (last === undefined) return null;
  try {
    const parsed = stateSchema.safeParse(JSON.parse(last));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface ComposeOptions {
  secrets?: string[];
}

/**
 * The body of a comment: the sanitized markdown, capped so that the marker and the
 * encoded state always fit after it within MAX_COMMENT_CHARS.
 */
export function composeComment(markdown: string, state: HiddenState, opts: ComposeOptions = {}): string {
  const tail = `\n\n${MARKER}\n${encodeState(fitState(state))}`;
  const body = sanitize(markdown, { secrets: opts.secrets ?? [], maxChars: MAX_COMMENT_CHARS - tail.length });
  return body + tail;
}

// The state may take at most half a comment. Only absurd runs (thousands of findings)
// reach this; the longest id list is halved until it fits, oldest ids kept.
const STATE_BUDGET = MAX_COMMENT_CHARS / 2;

function fitState(state: HiddenState): HiddenState {
  let s = state;
  while (encodeState(s).length > STATE_BUDGET) {
    const lists = (['findingIds', 'fixedIds', 'stuckIds'] as const).map((k) => [k, s[k]] as const);
    const [key, ids] = lists.reduce((a, b) => (b[1].length > a[1].length ? b : a));
    if (ids.length === 0) {
      // Only the free-text fields can be this long: cut them.
      s = { ...s, headSha: s.headSha.slice(0, 64), runId: s.runId?.slice(0, 64) ?? null, status: s.status?.slice(0, 64) ?? null };
      continue;
    }
    s = { ...s, [key]: ids.slice(0, Math.floor(ids.length / 2)) };
  }
  return s;
}
