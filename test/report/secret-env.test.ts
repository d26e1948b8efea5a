// The exact values redacted besides the token come from the environment.
import { describe, expect, it } from 'vitest';
import { redactSecrets, REDACTED } from '../../src/security/sanitize.js';
import { looksSecretName, secretValuesFromEnv, tokenForms } from '../../src/security/secret-env.js';

const b64 = (s: string) => Buffer.from(s).toString('base64').replace(/=+$/, '');

describe('secretValuesFromEnv', () => {
  const env = {
    ACTIONS_RUNTIME_TOKEN: 'runtime-FAKE-value-1',
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-request-FAKE-2',
    OPENAI_API_KEY: 'opaque-FAKE-key-value-3',
    DB_PASSWORD: 'hunter2hunter2',
    SMTP_PASS: 'mail-FAKE-pass-4',
    APIKEY: 'plain-FAKE-apikey-5',
    'INPUT_GITHUB-TOKEN': 'input-token-FAKE-6',
    SSH_AUTH_SOCK: '/tmp/ssh-XXXX/agent.123',
    TOKENIZERS_PARALLELISM: 'false',
    AWS_ACCESS_KEY_ID: 'AKIAFAKEFAKEFAKE0000',
    ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions.example/abc',
    SECRET_COUNT: '12345678',
    BYPASS_CACHE: 'yes-please-bypass',
    AUTHOR_NAME: 'Octo Cat Author',
    HOME: '/home/runner',
  };
  const values = secretValuesFromEnv(env);

  const listed = ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'OPENAI_API_KEY', 'DB_PASSWORD'] as const;
  it.each([...listed, 'SMTP_PASS', 'APIKEY', 'INPUT_GITHUB-TOKEN'] as const)('lists %s and its base64', (name) => {
    expect(values).toContain(env[name]);
    expect(values).toContain(b64(env[name]));
  });

  const skipped: (keyof typeof env)[] = ['SSH_AUTH_SOCK', 'TOKENIZERS_PARALLELISM', 'AWS_ACCESS_KEY_ID'];
  it.each([...skipped, 'ACTIONS_ID_TOKEN_REQUEST_URL', 'SECRET_COUNT', 'BYPASS_CACHE', 'AUTHOR_NAME', 'HOME'] as const)(
    'skips %s (not a credential name, or a trivial value)',
    (name) => {
      expect(values).not.toContain(env[name]);
    },
  );

  it('feeds the redactor: a leaked value is gone from a log line, also base64-encoded', () => {
    const line = `connecting with ${env.DB_PASSWORD} (header ${b64(env.SMTP_PASS)}==)`;
    expect(redactSecrets(line, values)).toBe(`connecting with ${REDACTED} (header ${REDACTED}==)`);
  });

  it('judges names by whole words for the short ones', () => {
    expect(looksSecretName('GH_PAT')).toBe(true);
    expect(looksSecretName('SENTRY_DSN')).toBe(true);
    expect(looksSecretName('PATH')).toBe(false);
    expect(looksSecretName('PASSTHROUGH_MODE')).toBe(false);
  });
});

describe('tokenForms', () => {
  it('covers the token, its base64 and the base64 of the checkout extraheader credential', () => {
    const token = 'ghs_FAKEfake0123456789FAKEfake012345678';
    const forms = tokenForms(token);
    const header = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
    expect(forms).toContain(token);
    expect(redactSecrets(`extraheader = ${header}`, forms)).not.toContain(b64(`x-access-token:${token}`));
    expect(redactSecrets(`b64 ${b64(token)}`, forms)).toBe(`b64 ${REDACTED}`);
  });
});
