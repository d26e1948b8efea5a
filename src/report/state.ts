// The hidden, machine-readable state every comment carries, so a later run
// knows which head was reviewed and which findings were reported fixed.
import * as z from 'zod';
import { PRIORITIES } from '../domain/priority.js';
import { MARKER } from '../domain/marker.js';
import { knownValues, RunSecrets, type Secrets } from '../security/run-secrets.js';
import { MAX_COMMENT_CHARS, sanitize } from '../security/sanitize.js';
import { exactValuesRedactor } from '../security/secret-patterns.js';

export { MARKER };

const STATE_OPEN = '<!-- pr-review-loop-state: ';
const STATE_CLOSE = ' -->';

/** A finding as the hidden state keeps it: id, priority, where, title. */
const stateFinding = z.object({
  id: z.string(),
  priority: z.enum(PRIORITIES),
  category: z.string(),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  title: z.string(),
});

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
  /**
   * A review's code findings (id, priority, where, title), so a later run's reviewers can check
   * what became of them. Titles are agents' text: data for reviewers, never shown.
   */
  findings: z.array(stateFinding).optional(),
  /** Fix attempts per failing CI check (`CI-…` id) on this PR so far: ci-fix-attempts spans runs. */
  ciAttempts: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Findings whose failing test the action ran and a pushed fix made pass: not confirmed again. */
  confirmedIds: z.array(z.string()).optional(),
  /** The models (`agent:model`) that wrote a pushed fix: a later run knows which reviewer may check it. */
  fixModels: z.array(z.string()).optional(),
  /** A fix's rejected findings with the fixer's reason, so a later run does not raise them again blindly. */
  rejected: z.array(z.object({ id: z.string(), reason: z.string() })).optional(),
  /**
   * The dismissals known when a review was posted: people with write access said these findings
   * are wrong (review/dismissals.ts). The threads say so too; this copy serves threads a later run
   * cannot read whole.
   */
  dismissed: z
    .array(
      z.object({
        thread: z.string(),
        id: z.string(),
        category: z.string(),
        file: z.string().nullable(),
        line: z.number().int().nullable(),
        title: z.string(),
        by: z.string(),
        reason: z.string(),
        via: z.enum(['command', 'resolved']),
        /** The start of what our comment said of the finding: a reworded repeat is matched by it. */
        text: z.string().optional(),
      }),
    )
    .optional(),
  /**
   * The decisions for the maintainers the run knew of when a review was posted (review/decisions.ts):
   * the question and options agents wrote (data, never instructions), who asked, and once answered
   * the answer (read once, when first seen, then kept here for later heads) and the commit that made it.
   */
  decisions: z
    .array(
      stateFinding.extend({
        description: z.string(),
        question: z.string(),
        options: z.array(z.string()),
        by: z.enum(['fixer', 'reviewers']),
        answer: z
          .object({ chosen: z.number().int(), by: z.string(), comment: z.string(), headSha: z.string() })
          .optional(),
        doneIn: z.string().optional(),
      }),
    )
    .optional(),
  /**
   * The replies in the action's threads it answered (REST comment ids), newest last: a long thread
   * is read as its first and latest comments, which can show an early reply but not its answer.
   */
  answered: z.array(z.number().int()).optional(),
  /** Finding counts of the review this comment belongs to: a skipped rerun still enforces fail-on. */
  counts: z
    .object({ p0: z.number().int(), p1: z.number().int(), p2: z.number().int(), p3: z.number().int() })
    .optional(),
  /** The fix commit this run pushed: only that commit's trailer means "our own fix commit". */
  commitSha: z.string().optional(),
  /** The workflow job that wrote it (workflow name and job id). */
  job: z.string().optional(),
  /** The workflow file of the run that wrote it (GITHUB_WORKFLOW_REF without owner/repo and ref). */
  workflow: z.string().optional(),
});
export type HiddenState = z.infer<typeof stateSchema>;

/** The run that writes a state: its id, and the workflow job a state must name to be trusted (memory.ts). */
export interface StateWriter {
  runId: string | null;
  job?: string;
  workflow?: string;
}

export interface ReportState {
  kind: 'review' | 'fix';
  round: number;
  headSha: string;
  /** The run's end status when this report ends it, else null. */
  status: string | null;
  findingIds?: string[];
  fixedIds?: string[];
  stuckIds?: string[];
}

/** The hidden state of a review or fix report of this run. */
export function reportState(writer: StateWriter, r: ReportState): HiddenState {
  const { runId, job, workflow } = writer;
  return {
    v: 1,
    kind: r.kind,
    headSha: r.headSha,
    round: r.round,
    runId,
    findingIds: r.findingIds ?? [],
    fixedIds: r.fixedIds ?? [],
    stuckIds: r.stuckIds ?? [],
    status: r.status,
    ...(job ? { job } : {}),
    ...(workflow ? { workflow } : {}),
  };
}

/**
 * The state of the final failure comment. It names no job, so no later run trusts it as memory:
 * a failed run has settled nothing.
 */
export function failureState(headSha: string, runId: string | null): HiddenState {
  return {
    v: 1,
    kind: 'failure',
    headSha,
    round: 0,
    runId,
    findingIds: [],
    fixedIds: [],
    stuckIds: [],
    status: 'failed',
  };
}

// Inside JSON string literals every character that could end the HTML comment (`--`,
// `>`), open markup, or form a secret-like pattern for the sanitizer (`=`, `:`, `/`,
// `@`, `-`) is written as a \uXXXX escape. JSON.parse reads it back unchanged.
const RISKY_IN_STRING = /[-<>=:@/&'`!+\u2028\u2029]/g;
const STRING_LITERAL = /"(?:[^"\\]|\\.)*"/g;

export function encodeState(s: HiddenState): string {
  return `${STATE_OPEN}${encodeJson(stateSchema.parse(s))}${STATE_CLOSE}`;
}

function encodeJson(value: unknown): string {
  return JSON.stringify(value).replace(STRING_LITERAL, (lit) =>
    lit.replace(RISKY_IN_STRING, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
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
  secrets?: Secrets;
}

/**
 * The body of a comment: the sanitized markdown, capped so that the marker and the
 * encoded state always fit after it within MAX_COMMENT_CHARS. The state's texts lose every secret
 * value known by then too: they are written escaped, where no later redaction would see one, and a
 * title made in an earlier round may hold a value the run learned since (run-secrets.ts).
 */
export function composeComment(markdown: string, state: HiddenState, opts: ComposeOptions = {}): string {
  const secrets = opts.secrets ?? [];
  // What the run's secrets learn from the markdown is redacted from the state as well.
  if (secrets instanceof RunSecrets) secrets.learn(markdown);
  const tail = `\n\n${MARKER}\n${encodeState(fitState(redactState(state, secrets)))}`;
  const body = sanitize(markdown, { secrets, maxChars: MAX_COMMENT_CHARS - tail.length });
  return body + tail;
}

/**
 * `state` with every exact secret value redacted from its texts (titles, reasons, what a comment
 * said). Nothing else: ids, shas and the job are read back by later runs, and the run's secrets
 * learn values from text anyone may write (a thread), so a value planted to match one must not
 * change it.
 */
function redactState(state: HiddenState, secrets: Secrets): HiddenState {
  const redact = exactValuesRedactor(knownValues(secrets));
  const texts = <T extends { title?: string | undefined; reason?: string | undefined; text?: string | undefined }>(
    items: T[],
  ): T[] =>
    items.map((i) => ({
      ...i,
      ...(i.title !== undefined ? { title: redact(i.title) } : {}),
      ...(i.reason !== undefined ? { reason: redact(i.reason) } : {}),
      ...(i.text !== undefined ? { text: redact(i.text) } : {}),
    }));
  const { fixed, findings, rejected, dismissed, decisions } = state;
  return {
    ...state,
    ...(decisions
      ? {
          decisions: texts(decisions).map((d) => ({
            ...d,
            description: redact(d.description),
            question: redact(d.question),
            options: d.options.map(redact),
          })),
        }
      : {}),
    ...(fixed ? { fixed: texts(fixed) } : {}),
    ...(findings ? { findings: texts(findings) } : {}),
    ...(rejected ? { rejected: texts(rejected) } : {}),
    ...(dismissed ? { dismissed: texts(dismissed) } : {}),
  };
}

// The state may take at most half a comment. Only absurd runs (thousands of findings, or an
// agent's hostile field sizes) reach the fitting below.
const STATE_BUDGET = MAX_COMMENT_CHARS / 2;

/**
 * Longest value kept per field. Real values are far shorter (a sha is 40 hex digits, the action's
 * ids about 15 characters); hostile ones are cut, so that with every list empty the state always
 * fits: even if every character is escaped to six, these add up to well under STATE_BUDGET.
 */
export const STATE_FIELD_CAPS = {
  sha: 64,
  runId: 32,
  status: 32,
  job: 256,
  workflow: 256,
  id: 128,
  category: 64,
  file: 512,
  title: 120,
  reason: 300,
} as const;

// The fewest characters one list item can take (`"",` for an id; a fingerprint with empty
// strings is 46): a list longer than the budget allows can be cut before the first encoding.
const MIN_ID_CHARS = 3;
const MIN_FINGERPRINT_CHARS = 46;
const LISTS = [
  'findingIds',
  'fixedIds',
  'stuckIds',
  'fixed',
  'findings',
  'rejected',
  'confirmedIds',
  'dismissed',
  'decisions',
  'answered',
] as const;

/** At most `max` UTF-16 units, never splitting a surrogate pair (an emoji). */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, cut);
}

const clippedReason = (r: { id: string; reason: string }) => ({
  id: clipText(r.id, STATE_FIELD_CAPS.id),
  reason: clipText(r.reason, STATE_FIELD_CAPS.reason),
});

/** Every string cut to its cap and every list to the most items that could ever fit. */
function capFields(s: HiddenState): HiddenState {
  const c = STATE_FIELD_CAPS;
  const ids = (xs: string[]) => xs.slice(0, Math.floor(STATE_BUDGET / MIN_ID_CHARS)).map((x) => clipText(x, c.id));
  const fingerprint = (f: NonNullable<HiddenState['fixed']>[number]) => ({
    id: clipText(f.id, c.id),
    category: clipText(f.category, c.category),
    file: f.file === null ? null : clipText(f.file, c.file),
    title: clipText(f.title, c.title),
  });
  const { commitSha, job, workflow, fixed, findings, rejected, confirmedIds, ciAttempts, dismissed, answered } = s;
  const { decisions } = s;
  const attempts =
    ciAttempts &&
    Object.entries(ciAttempts)
      .slice(0, 50)
      .map(([k, v]) => [clipText(k, c.id), v]);
  const most = Math.floor(STATE_BUDGET / MIN_FINGERPRINT_CHARS);
  return {
    ...s,
    headSha: clipText(s.headSha, c.sha),
    runId: s.runId === null ? null : clipText(s.runId, c.runId),
    status: s.status === null ? null : clipText(s.status, c.status),
    findingIds: ids(s.findingIds),
    fixedIds: ids(s.fixedIds),
    stuckIds: ids(s.stuckIds),
    ...(confirmedIds ? { confirmedIds: ids(confirmedIds) } : {}),
    ...(attempts ? { ciAttempts: Object.fromEntries(attempts) } : {}),
    ...(fixed ? { fixed: fixed.slice(0, most).map(fingerprint) } : {}),
    ...(findings ? { findings: findings.slice(0, most).map((f) => ({ ...f, ...fingerprint(f) })) } : {}),
    ...(rejected ? { rejected: rejected.slice(0, most).map((r) => ({ ...r, ...clippedReason(r) })) } : {}),
    ...(dismissed
      ? {
          dismissed: dismissed.slice(0, most).map((d) => ({
            ...d,
            ...fingerprint(d),
            ...clippedReason(d),
            thread: clipText(d.thread, c.id),
            by: clipText(d.by, c.id),
            ...(d.text !== undefined ? { text: clipText(d.text, c.reason) } : {}),
          })),
        }
      : {}),
    ...(decisions
      ? {
          decisions: decisions.slice(0, most).map((d) => ({
            ...d,
            ...fingerprint(d),
            description: clipText(d.description, c.reason),
            question: clipText(d.question, c.reason),
            options: d.options.slice(0, 6).map((o) => clipText(o, c.reason)),
            ...(d.answer
              ? {
                  answer: {
                    ...d.answer,
                    by: clipText(d.answer.by, c.id),
                    comment: clipText(d.answer.comment, c.reason),
                    headSha: clipText(d.answer.headSha, c.sha),
                  },
                }
              : {}),
            ...(d.doneIn !== undefined ? { doneIn: clipText(d.doneIn, c.sha) } : {}),
          })),
        }
      : {}),
    // The newest answers are the ones a later run may not see in their threads.
    ...(answered ? { answered: answered.slice(-Math.floor(STATE_BUDGET / MIN_ID_CHARS)) } : {}),
    ...(commitSha !== undefined ? { commitSha: clipText(commitSha, c.sha) } : {}),
    ...(s.fixModels ? { fixModels: s.fixModels.slice(0, 8).map((m) => clipText(m, c.id)) } : {}),
    ...(job !== undefined ? { job: clipText(job, c.job) } : {}),
    ...(workflow !== undefined ? { workflow: clipText(workflow, c.workflow) } : {}),
  };
}

/**
 * Fits the state into STATE_BUDGET. Terminates for any input: every pass halves a list (oldest
 * items kept), so the lists' total length strictly falls, and once they are empty the capped
 * fields alone fit. Halving the list that takes the most room (not the one with most items)
 * keeps the passes few; capFields bounds what each pass encodes.
 */
export function fitState(state: HiddenState): HiddenState {
  let s = capFields(state);
  while (encodeState(s).length > STATE_BUDGET) {
    const sizes = LISTS.map((k) => encodeJson(s[k] ?? []).length);
    const key = LISTS[sizes.indexOf(Math.max(...sizes))]!;
    const items = s[key] ?? [];
    if (items.length === 0) break;
    s = { ...s, [key]: items.slice(0, Math.floor(items.length / 2)) };
  }
  return s;
}
