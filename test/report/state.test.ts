import { describe, expect, it } from 'vitest';
import { MAX_COMMENT_CHARS, REDACTED, TRUNCATED_SUFFIX, sanitize } from '../../src/security/sanitize.js';
import {
  MARKER,
  STATE_FIELD_CAPS,
  composeComment,
  decodeState,
  encodeState,
  failureState,
  fitState,
  reportState,
  type HiddenState,
} from '../../src/report/state.js';

const state: HiddenState = {
  v: 1,
  kind: 'review',
  headSha: '3f786850e387550fdab836ed7e6dc881de23001b',
  round: 2,
  runId: '9876543210',
  findingIds: ['SEC-1a2b3c4d', 'QUAL-0badc0de', 'THREAD-2468013579'],
  fixedIds: ['PERF-deadbeef'],
  stuckIds: [],
  status: null,
};

describe('encodeState / decodeState', () => {
  it('round-trips inside a comment body', () => {
    const body = `## Report\n\ntext\n\n${MARKER}\n${encodeState(state)}`;
    expect(decodeState(body)).toEqual(state);
  });

  it('is one HTML comment that hostile field values cannot close early', () => {
    const hostile: HiddenState = {
      ...state,
      kind: 'final',
      runId: '--> <script>alert(1)</script> <!--',
      findingIds: ['a-->b', 'c--!>d', '---', '<!-- x -->', 'quote " and \\ backslash', 'line\nbreak\u2028'],
      status: '-->',
    };
    const enc = encodeState(hostile);
    expect(enc.startsWith('<!-- pr-review-loop-state: ')).toBe(true);
    expect(enc.endsWith(' -->')).toBe(true);
    const inner = enc.slice('<!--'.length, -'-->'.length);
    expect(inner).not.toMatch(/--|<|>/);
    expect(decodeState(`before ${enc} after`)).toEqual(hostile);
  });

  it('is left untouched by the sanitizer', () => {
    const risky: HiddenState = {
      ...state,
      status: 'password=Xy12345678 https://u:p4ss@h diff --git a/b',
      runId: 'token: abcd1234efgh',
    };
    const enc = encodeState(risky);
    expect(sanitize(enc)).toBe(enc);
    expect(decodeState(sanitize(enc))).toEqual(risky);
  });

  it('still decodes after a real token inside it was redacted', () => {
    const tok = ['ghp', '_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
    const enc = encodeState({ ...state, runId: tok });
    expect(decodeState(sanitize(enc))).toEqual({ ...state, runId: REDACTED });
  });

  it('takes the last state when there are several', () => {
    const body = `${encodeState(state)}\n${encodeState({ ...state, round: 3, kind: 'fix' })}`;
    expect(decodeState(body)?.round).toBe(3);
  });

  it.each([
    ['no state at all', 'just a comment'],
    ['broken JSON', '<!-- pr-review-loop-state: {"v":1,"kind": -->'],
    ['wrong version', `<!-- pr-review-loop-state: ${JSON.stringify({ ...state, v: 2 })} -->`],
    ['unknown kind', `<!-- pr-review-loop-state: ${JSON.stringify({ ...state, kind: 'other' })} -->`],
    ['missing field', `<!-- pr-review-loop-state: ${JSON.stringify({ ...state, headSha: undefined })} -->`],
    ['negative round', `<!-- pr-review-loop-state: ${JSON.stringify({ ...state, round: -1 })} -->`],
    ['ids not strings', `<!-- pr-review-loop-state: ${JSON.stringify({ ...state, findingIds: [1, 2] })} -->`],
    ['an array', '<!-- pr-review-loop-state: {"0":[1]} -->'],
  ])('returns null for %s', (_name, body) => {
    expect(decodeState(body)).toBeNull();
  });

  it('refuses to encode an invalid state', () => {
    expect(() => encodeState({ ...state, round: Number.NaN })).toThrow();
  });
});

describe('reportState / failureState', () => {
  const head = 'a'.repeat(40);
  it('names the writing job and workflow when the run knows them, and round-trips', () => {
    const writer = { runId: '42', job: 'Review/review', workflow: '.github/workflows/review.yml' };
    const s = reportState(writer, { kind: 'fix', round: 2, headSha: head, status: null, fixedIds: ['BUG-1'] });
    expect(s).toEqual({
      v: 1,
      kind: 'fix',
      headSha: head,
      round: 2,
      runId: '42',
      findingIds: [],
      fixedIds: ['BUG-1'],
      stuckIds: [],
      status: null,
      job: 'Review/review',
      workflow: '.github/workflows/review.yml',
    });
    expect(decodeState(encodeState(s))).toEqual(s);
  });
  it('leaves job and workflow out when unknown, and a failure state never names a job', () => {
    const s = reportState({ runId: null }, { kind: 'review', round: 1, headSha: head, status: 'converged' });
    expect('job' in s || 'workflow' in s).toBe(false);
    expect(failureState(head, '7')).toEqual({
      v: 1,
      kind: 'failure',
      headSha: head,
      round: 0,
      runId: '7',
      findingIds: [],
      fixedIds: [],
      stuckIds: [],
      status: 'failed',
    });
  });
});

describe('composeComment', () => {
  it('appends marker and state after the sanitized markdown', () => {
    const tok = ['gho', '_', 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2'].join('');
    const out = composeComment(`## Hi\n\nleaked ${tok}\n\nsecret-value-1 here`, state, { secrets: ['secret-value-1'] });
    expect(out).toContain(`leaked ${REDACTED}`);
    expect(out).toContain(`${REDACTED} here`);
    expect(out).toContain(MARKER);
    expect(out.endsWith(encodeState(state))).toBe(true);
    expect(decodeState(out)).toEqual(state);
  });

  it('keeps marker and a decodable state within the cap for 200k chars of markdown', () => {
    const markdown = `## Big\n\n${'finding text with `code` and <b>html</b>\n'.repeat(5_000)}`;
    expect(markdown.length).toBeGreaterThan(200_000);
    const out = composeComment(markdown, state);
    expect(out.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(out).toContain(MARKER);
    expect(out).toContain(TRUNCATED_SUFFIX.trim());
    expect(decodeState(out)).toEqual(state);
  });

  it('fits an absurdly large state by dropping ids instead of breaking the cap', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `QUAL-${i.toString(16).padStart(8, '0')}`);
    const out = composeComment('x'.repeat(100_000), { ...state, findingIds: many, fixedIds: many.slice(0, 10) });
    expect(out.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    const decoded = decodeState(out);
    expect(decoded?.findingIds.length).toBeGreaterThan(100);
    expect(decoded?.findingIds[0]).toBe('QUAL-00000000');
    expect(decoded?.fixedIds).toEqual(many.slice(0, 10));
  });

  it('redacts a diff in the markdown but not the state after it', () => {
    const out = composeComment('Change:\ndiff --git a/x b/x\n+y', state);
    expect(out).toContain('[DIFF REDACTED]');
    expect(out).not.toContain('+y');
    expect(decodeState(out)).toEqual(state);
  });
});

describe('fitting the state into the comment (hostile sizes)', () => {
  // Each of these characters is written as a six-character \uXXXX escape in the state.
  const escaping = (n: number) => '-/:@<>'.repeat(Math.ceil(n / 6)).slice(0, n);
  const emoji = (n: number) => '🧨'.repeat(n);
  const fingerprint = (i: number, file: string) => ({
    id: `BUG-${i.toString(16).padStart(8, '0')}`,
    category: 'correctness',
    file,
    title: `t ${i}`,
  });
  const budget = MAX_COMMENT_CHARS / 2;

  function expectFits(s: HiddenState): HiddenState {
    const out = composeComment(`## Report\n\n${'text '.repeat(20_000)}`, s);
    expect(out.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    const decoded = decodeState(out);
    expect(decoded).not.toBeNull();
    expect(encodeState(decoded!).length).toBeLessThanOrEqual(budget);
    expect(decoded).toMatchObject({ kind: s.kind, round: s.round });
    return decoded!;
  }

  it('ends for pushed fixes whose file names are 10,000 characters that grow when escaped', () => {
    const fixed = Array.from({ length: 5 }, (_, i) => fingerprint(i, escaping(10_000)));
    const d = expectFits({ ...state, kind: 'fix', fixedIds: fixed.map((f) => f.id), fixed, commitSha: 'c'.repeat(40) });
    expect(d.fixed!.length).toBeGreaterThan(0);
    for (const f of d.fixed!) expect(f.file!.length).toBeLessThanOrEqual(STATE_FIELD_CAPS.file);
    expect(d.commitSha).toBe('c'.repeat(40));
  });

  it('ends for 10,000 findings, each with a 10,000-character file name', () => {
    const fixed = Array.from({ length: 10_000 }, (_, i) => fingerprint(i, `${escaping(9_990)}${i}`));
    const ids = fixed.map((f) => f.id);
    const d = expectFits({ ...state, kind: 'fix', findingIds: ids, fixedIds: ids, stuckIds: ids, fixed });
    expect(d.fixed![0]!.id).toBe('BUG-00000000');
    expect(d.findingIds[0]).toBe('BUG-00000000');
  });

  it('ends when every free-text field is huge, escaping or emoji', () => {
    const d = expectFits({
      ...state,
      headSha: escaping(10_000),
      runId: emoji(10_000),
      status: escaping(10_000),
      job: escaping(100_000),
      workflow: emoji(100_000),
      commitSha: escaping(10_000),
      findingIds: [emoji(10_000)],
      fixedIds: [],
      stuckIds: [],
      fixed: [{ id: emoji(10_000), category: escaping(10_000), file: emoji(10_000), title: emoji(10_000) }],
    });
    expect(d.job!.length).toBeLessThanOrEqual(STATE_FIELD_CAPS.job);
    expect(d.workflow!.length).toBeLessThanOrEqual(STATE_FIELD_CAPS.workflow);
    // Cut between emoji, never inside one.
    expect(d.workflow).toBe(emoji(STATE_FIELD_CAPS.workflow / 2));
  });

  it('with every list empty, the capped fields alone always fit (the bound the loop relies on)', () => {
    const c = STATE_FIELD_CAPS;
    const MAX = Number.MAX_SAFE_INTEGER;
    const worst: HiddenState = {
      ...state,
      kind: 'failure',
      round: MAX,
      headSha: escaping(c.sha),
      runId: escaping(c.runId),
      status: escaping(c.status),
      job: escaping(c.job),
      workflow: escaping(c.workflow),
      commitSha: escaping(c.sha),
      findingIds: [],
      fixedIds: [],
      stuckIds: [],
      fixed: [],
      counts: { p0: MAX, p1: MAX, p2: MAX, p3: MAX },
    };
    expect(fitState(worst)).toEqual(worst);
    expect(encodeState(worst).length).toBeLessThan(budget / 4);
  });

  it('keeps a normal state exactly as it is', () => {
    const normal: HiddenState = {
      ...state,
      job: 'pr-review-loop/review-loop',
      workflow: '.github/workflows/pr-review-loop.yml',
      fixed: [fingerprint(1, 'src/a.ts')],
    };
    expect(fitState(normal)).toEqual(normal);
    expect(decodeState(composeComment('## ok', normal))).toEqual(normal);
  });
});
