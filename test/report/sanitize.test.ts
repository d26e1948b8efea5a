import { describe, expect, it } from 'vitest';
import {
  DIFF_REDACTED,
  MAX_COMMENT_CHARS,
  REDACTED,
  TRUNCATED_SUFFIX,
  redactSecrets,
  sanitize,
} from '../../src/security/sanitize.js';

// Fake credentials are assembled at run time so no secret scanner flags this file.
const j = (...parts: string[]) => parts.join('');
const alnum = (n: number, seed = 7) =>
  Array.from({ length: n }, (_, i) => 'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0z'[(i * seed) % 31]).join('');

const SECRETS: [string, string][] = [
  ['GitHub classic token', j('ghp', '_', alnum(36))],
  ['GitHub app installation token', j('ghs', '_', alnum(36, 11))],
  ['GitHub OAuth token', j('gho', '_', alnum(36, 13))],
  ['GitHub user-to-server token', j('ghu', '_', alnum(36, 3))],
  ['GitHub refresh token', j('ghr', '_', alnum(36, 5))],
  ['GitHub fine-grained PAT', j('github', '_pat_', '11ABCDEFG0', alnum(20), '_', alnum(59, 3))],
  ['AWS access key id', j('AKIA', 'IOSFODNN7EXAMPLE')],
  ['OpenAI key', j('sk', '-proj-', alnum(48))],
  ['Anthropic key', j('sk', '-ant-api03-', alnum(80, 11))],
  ['Google API key', j('AIza', 'SyD', alnum(32, 13))],
  ['Slack bot token', j('xox', 'b-', '1234567890', '-', '0987654321', '-', alnum(24))],
  [
    'JWT',
    j(
      'eyJ',
      'hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
      '.',
      'eyJ',
      'zdWIiOiIxMjM0NTY3ODkwIn0',
      '.',
      'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    ),
  ],
];

describe('sanitize: secret kinds', () => {
  it.each(SECRETS)('redacts a %s in prose and keeps the prose', (_kind, secret) => {
    const out = sanitize(`The agent printed ${secret} while running tests.`);
    expect(out).toBe(`The agent printed ${REDACTED} while running tests.`);
  });

  it('redacts Bearer and Authorization header values but keeps the header names', () => {
    const tok = j('abc', '123', alnum(30));
    expect(sanitize(`curl -H "Authorization: Bearer ${tok}" https://api`)).toBe(
      `curl -H "Authorization: Bearer ${REDACTED}" https://api`,
    );
    expect(sanitize('Authorization: basic dXNlcjpwYXNzd29yZA==')).toBe(`Authorization: basic ${REDACTED}`);
    expect(sanitize(`send Bearer ${tok} along`)).toBe(`send Bearer ${REDACTED} along`);
  });

  it('redacts aws_secret_access_key and password/secret/token assignments with real values', () => {
    const awsSecret = j('wJalrXUtnFEMI', '/K7MDENG/bPxRfiCY', 'EXAMPLEKEY');
    expect(sanitize(`aws_secret_access_key = ${awsSecret}`)).toBe(`aws_secret_access_key = ${REDACTED}`);
    expect(sanitize('DB_PASSWORD=S3cr3t!pass')).toBe(`DB_PASSWORD=${REDACTED}`);
    expect(sanitize('  client_secret: "f00bar-baz-qux"')).toBe(`  client_secret: "${REDACTED}"`);
    expect(sanitize(`{"token": "hunter22x"}`)).toBe(`{"token": "${REDACTED}"}`);
    expect(sanitize('api_key=Zx9-44kq_Lm2')).toBe(`api_key=${REDACTED}`);
  });

  // Line by line: redaction never joins lines, so it cannot change the structure around a block.
  it('redacts every line of a private key block, and of one cut off before END', () => {
    const body = j('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', '\n', 'BKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj');
    const block = j('-----BEGIN ', 'RSA PRIVATE KEY-----\n', body, '\n-----END RSA PRIVATE KEY-----');
    const four = Array(4).fill(REDACTED).join('\n');
    expect(sanitize(`before\n${block}\nafter`)).toBe(`before\n${four}\nafter`);
    const open = j('-----BEGIN ', 'OPENSSH PRIVATE KEY-----\n', body);
    const three = Array(3).fill(REDACTED).join('\n');
    expect(sanitize(`key:\n${open}\n\nnext paragraph`)).toBe(`key:\n${three}\n\nnext paragraph`);
  });

  it('redacts credentials embedded in URLs and keeps the host', () => {
    expect(sanitize('cloned https://deploy:pa55w0rd@git.example.com/org/repo.git')).toBe(
      `cloned https://${REDACTED}@git.example.com/org/repo.git`,
    );
    const tok = j('ghs', '_', alnum(36));
    expect(sanitize(`https://x-access-token:${tok}@github.com/o/r`)).toBe(`https://${REDACTED}@github.com/o/r`);
  });

  it('redacts exact secret values given by the caller, longest first, ignoring very short ones', () => {
    const out = sanitize('key=plainvalue and plainvalue-extended and abc', {
      secrets: ['plainvalue', 'plainvalue-extended', 'abc'],
    });
    expect(out).toBe(`key=${REDACTED} and ${REDACTED} and abc`);
  });

  it('is idempotent', () => {
    const text =
      SECRETS.map(([, s]) => `x ${s} y`).join('\n') + '\nAuthorization: Bearer abc123def456ghi\npassword=Xy12345678';
    const once = sanitize(text);
    expect(sanitize(once)).toBe(once);
    expect(once).not.toMatch(/ghp_|AKIA|AIza|xoxb|eyJ/);
  });
});

describe('sanitize: near misses survive', () => {
  const keep = [
    'fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b on main',
    'finding SEC-1a2b3c4d and QUAL-0badc0de are stuck',
    'The password field must be hashed before storing the password.',
    'password: string;',
    'const token = await getToken(opts);',
    'secret: ${{ secrets.NPM_TOKEN }}',
    'token=process.env.GITHUB_TOKEN',
    'max_tokens: 4096, tokenizer: cl100k_base',
    'Bearer tokens are accepted in the Authorization header.',
    'see https://github.com/octo/repo/blob/3f786850e387550fdab836ed7e6dc881de23001b/src/a.ts#L10',
    'task-runner-sk-config and risk-assessment-module-v2 names',
    'email me at dev@example.com',
  ];
  it.each(keep)('keeps %j', (text) => {
    expect(sanitize(text)).toBe(text);
  });
});

describe('sanitize: diff blocks', () => {
  it('replaces a fenced diff and keeps the text around it', () => {
    const text = [
      'Here is the change:',
      '```diff',
      'diff --git a/src/a.ts b/src/a.ts',
      'index 83db48f..bf269f4 100644',
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -1,3 +1,3 @@',
      ' const a = 1;',
      '-const b = 2;',
      '+const b = 3;',
      '```',
      'And that is all.',
    ].join('\n');
    expect(sanitize(text)).toBe(
      ['Here is the change:', '```diff', DIFF_REDACTED, '```', 'And that is all.'].join('\n'),
    );
  });

  it('ends an unfenced diff at a blank line followed by prose, and spans blank lines inside the diff', () => {
    const text = [
      'Intro',
      'diff --git a/x b/x',
      '@@ -1 +1 @@',
      '-old',
      '+new',
      '',
      'diff --git a/y b/y',
      '+added',
      '',
      'Closing words stay.',
    ].join('\n');
    expect(sanitize(text)).toBe(['Intro', DIFF_REDACTED, '', 'Closing words stay.'].join('\n'));
  });

  it('redacts a diff that runs to the end of the text', () => {
    expect(sanitize('See:\ndiff --git a/x b/x\n+secret stuff')).toBe(`See:\n${DIFF_REDACTED}`);
  });
});

describe('sanitize: the cap', () => {
  it('cuts to exactly maxChars with the suffix', () => {
    const out = sanitize('word '.repeat(30_000));
    expect(out.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(out.length).toBeGreaterThan(MAX_COMMENT_CHARS - 10);
    expect(out.endsWith(TRUNCATED_SUFFIX)).toBe(true);
  });

  it('leaves text at the limit alone', () => {
    const text = 'x'.repeat(MAX_COMMENT_CHARS);
    expect(sanitize(text)).toBe(text);
  });

  it('closes an open code fence and <details> before the suffix', () => {
    const text = `<details><summary>Log</summary>\n\n\`\`\`text\n${'line\n'.repeat(20_000)}`;
    const out = sanitize(text, { maxChars: 5_000 });
    expect(out.length).toBeLessThanOrEqual(5_000);
    expect(out.endsWith(`\n\`\`\`\n</details>${TRUNCATED_SUFFIX}`)).toBe(true);
  });

  it('never splits a surrogate pair', () => {
    const out = sanitize('😀'.repeat(100), { maxChars: 50 });
    expect(out.length).toBeLessThanOrEqual(50);
    expect(out.replace(TRUNCATED_SUFFIX, '')).toMatch(/^(?:😀)+$/u);
  });
});

describe('redactSecrets', () => {
  it('redacts secrets only: no diff redaction, no cap', () => {
    const tok = j('ghp', '_', alnum(36));
    const text = `diff --git a/x b/x\n+${tok}\n${'y'.repeat(70_000)}`;
    const out = redactSecrets(text, []);
    expect(out.startsWith(`diff --git a/x b/x\n+${REDACTED}\n`)).toBe(true);
    expect(out.length).toBe(text.length - tok.length + REDACTED.length);
  });

  it('keeps JSON valid when it redacts inside string values', () => {
    const data = { token: 'hunter22x!', key: j('-----BEGIN ', 'PRIVATE KEY-----\nMIIabc'), note: 'ok' };
    const out = redactSecrets(JSON.stringify(data), ['hunter22x!']);
    expect(JSON.parse(out)).toEqual({ token: REDACTED, key: REDACTED, note: 'ok' });
  });
});

describe('sanitize: no catastrophic backtracking', () => {
  // Each of these took 10–60 s before the open-ended prefixes in the rules were bounded.
  it.each([
    ['kebab run', 'a-'.repeat(100_000)],
    ['dotted run', 'a.'.repeat(100_000)],
    ['repeated sk-', 'sk-'.repeat(60_000)],
    ['repeated xoxb-', 'xoxb-'.repeat(40_000)],
    ['unterminated key blocks', '-----BEGIN PRIVATE KEY-----\n'.repeat(2_000)],
  ])('handles a 200k %s in well under the timeout', (_name, text) => {
    const started = Date.now();
    sanitize(text);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
