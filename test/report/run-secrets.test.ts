// Redaction by value, run-wide (src/security/run-secrets.ts): a value a secret rule recognises by
// its context in one text is redacted wherever it appears after, bare, in any text of the run,
// and a value that could be a word never is. Secret values are fake, assembled at run time.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ActionIO } from '../../src/domain/io.js';
import { finding } from '../factories.js';
import { fixCommitMessage, ROUND_TRAILER } from '../../src/fix/commit-message.js';
import { guardedIO } from '../../src/report/guarded-io.js';
import { composeComment, decodeState, type HiddenState } from '../../src/report/state.js';
import { learnable, RunSecrets } from '../../src/security/run-secrets.js';
import { REDACTED, sanitize } from '../../src/security/sanitize.js';
import { AWS_SECRET, AZURE_KEY, IN_CONTEXT, SLACK_PATH, URL_TOKEN } from '../fixtures/hostile/secrets-in-context.js';

/** Whether `text` still shows 8 characters of a secret in a row, once its redactions are taken out. */
const showsSecret = (text: string) => /[A-Za-z0-9+/=_-]{8}/.test(text.replaceAll(REDACTED, ' '));

describe('RunSecrets', () => {
  it.each(IN_CONTEXT)('redacts %s bare in a later text once a rule saw it in context', (_name, context, value) => {
    const secrets = new RunSecrets();
    expect(secrets.redact(context)).not.toContain(value);
    // A value of parts (a webhook's path) may go part by part: nothing of it is left.
    const bare = secrets.redact(`Rotate ${value} now.`);
    expect(bare).toMatch(/^Rotate \[REDACTED\].* now\.$/);
    expect(showsSecret(bare), bare).toBe(false);
    // Without the context first, the bare value is not known to be one: that is what is learned.
    expect(new RunSecrets().redact(`Rotate ${value} now.`)).toContain(value);
  });

  it('redacts a bare copy that comes before the one in context in the same text', () => {
    const secrets = new RunSecrets();
    const text = `Rotate ${AWS_SECRET} first.\n\nIt is set as aws_secret_access_key = ${AWS_SECRET} in ci.env.`;
    expect(secrets.redact(text)).toBe(
      `Rotate ${REDACTED} first.\n\nIt is set as aws_secret_access_key = ${REDACTED} in ci.env.`,
    );
  });

  it('learns from a text it only reads (an agent answer, a thread), for every text after', () => {
    const secrets = new RunSecrets();
    secrets.learn(JSON.stringify({ findings: [{ description: IN_CONTEXT.map(([, c]) => c).join('\n') }] }));
    const bare = IN_CONTEXT.map(([, , v]) => v).join(' and ');
    const out = secrets.redact(`Revoke ${bare}.`);
    expect(showsSecret(out), out).toBe(false);
  });

  it('redacts the bare copy of every secret of the corpus once it was seen in context', () => {
    const corpus: { positives: { name: string; text: string; parts: string[] }[] } = JSON.parse(
      readFileSync(new URL('../fixtures/hostile/secrets-corpus.json', import.meta.url), 'utf8'),
    );
    for (const p of corpus.positives) {
      const secret = p.parts.join('');
      const secrets = new RunSecrets();
      secrets.redact(p.text.replace('{secret}', secret));
      expect(secrets.redact(`Rotate ${secret} now.`), p.name).toBe(`Rotate ${REDACTED} now.`);
    }
  });

  it('never remembers a value that could be a word, though the rule redacts it in context', () => {
    const secrets = new RunSecrets();
    const contexts = [
      'token: "production"',
      'password = "Something"',
      'secret: "read-only"',
      'password: "JavaScript"',
      'client_secret: "x-access-token"',
      'api_key = "aaaa1111"',
    ];
    for (const c of contexts) expect(secrets.redact(c)).toContain(REDACTED);
    expect(secrets.values).toEqual([]);
    const prose = 'Something in production is read-only: JavaScript reads x-access-token and aaaa1111.';
    expect(secrets.redact(prose)).toBe(prose);
  });

  it('redacts a given value exactly, however short or plain', () => {
    const secrets = new RunSecrets(['hunter2']);
    secrets.add('plainword');
    expect(secrets.redact('hunter2 and plainword')).toBe(`${REDACTED} and ${REDACTED}`);
  });
});

describe('learnable', () => {
  it('keeps the parts of a value made of parts that could not be words', () => {
    expect(learnable(`https://hooks.slack.com/services/${SLACK_PATH}`)).toEqual([
      `https://hooks.slack.com/services/${SLACK_PATH}`,
      ...SLACK_PATH.split('/'),
    ]);
    expect(learnable(`x-access-token:${URL_TOKEN}`)).toEqual([`x-access-token:${URL_TOKEN}`, URL_TOKEN]);
    expect(learnable('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEF\n-----END PRIVATE KEY-----')).toEqual([
      'MIIEvQIBADANBgkqhkiG9w0BAQEF',
    ]);
  });
});

describe('the run-wide places', () => {
  it('redacts from a hidden state a title made before the value was learned, and nothing it reads back', () => {
    const secrets = new RunSecrets();
    const state: HiddenState = {
      v: 1,
      kind: 'fix',
      headSha: 'a'.repeat(40),
      round: 2,
      runId: '1',
      status: null,
      findingIds: ['BUG-5bb51bb7'],
      fixedIds: ['BUG-5bb51bb7'],
      stuckIds: [],
      fixed: [{ id: 'BUG-5bb51bb7', category: 'security', file: 'ci.env', title: `Rotate ${AZURE_KEY}` }],
    };
    // Anyone may write a thread: an id a later run reads back, planted as a "secret", stays as it is.
    secrets.learn('api_key = BUG-5bb51bb7');
    expect(secrets.values).toEqual(['BUG-5bb51bb7']);
    // The comment's own text holds the value in context: the state, written escaped, loses it too.
    const body = composeComment(`## Fixed\n\n${IN_CONTEXT[3]![1]}`, state, { secrets });
    expect(body).not.toContain(AZURE_KEY);
    const decoded = decodeState(body)!;
    expect(decoded.fixed![0]!.title).toBe(`Rotate ${REDACTED}`);
    expect(decoded.headSha).toBe('a'.repeat(40));
    expect([decoded.findingIds, decoded.fixedIds, decoded.fixed![0]!.id]).toEqual([
      ['BUG-5bb51bb7'],
      ['BUG-5bb51bb7'],
      'BUG-5bb51bb7',
    ]);
    // A later comment, with nothing in context, still has it out of its state.
    expect(JSON.stringify(decodeState(composeComment('## Next', state, { secrets })))).not.toContain(AZURE_KEY);
  });

  it('redacts from the log, annotations and the job summary what an earlier text revealed', async () => {
    const lines: string[] = [];
    const summary: string[] = [];
    const io: ActionIO = {
      info: (m) => lines.push(m),
      warning: (m, a) => lines.push(m, a?.title ?? ''),
      notice: (m) => lines.push(m),
      error: (m, a) => lines.push(m, a?.title ?? ''),
      setFailed: (m) => lines.push(m),
      setOutput: () => undefined,
      setSecret: () => undefined,
      appendSummary: async (md) => void summary.push(md),
      prependSummary: async (md) => void summary.unshift(md),
    };
    const secrets = new RunSecrets();
    const g = guardedIO(io, secrets);
    g.info(`verify: ${IN_CONTEXT[0]![1]}`);
    g.error(`BUG-1: Rotate ${AWS_SECRET}`, { title: `P1 ${AWS_SECRET}` });
    // Sanitised where it was made, before the value was known: the sink takes it out.
    await g.appendSummary(sanitize(`Rotate ${AWS_SECRET}`));
    expect([...lines, ...summary].join('\n')).not.toContain(AWS_SECRET);
    expect(lines.slice(1)).toEqual([`BUG-1: Rotate ${REDACTED}`, `P1 ${REDACTED}`]);
  });

  it('redacts the lines of a fix commit message, never its trailer, which a later run reads', () => {
    const secrets = new RunSecrets();
    // Anyone may write a thread: a value the action writes itself can be planted as a "secret".
    secrets.learn(`token: "${ROUND_TRAILER}"`);
    secrets.learn(IN_CONTEXT[0]![1]);
    const bug = finding({ title: `Rotate ${AWS_SECRET}` });
    const message = fixCommitMessage(2, [{ findingId: bug.id, description: '' }], [bug], (t) => secrets.redact(t));
    expect(message).toContain(`- ${bug.id}: Rotate ${REDACTED}\n`);
    expect(message.endsWith(`\n\n${ROUND_TRAILER}: 2\n`)).toBe(true);
  });
});
