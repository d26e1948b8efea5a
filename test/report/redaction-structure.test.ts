// Redaction runs on text that neutralisation already made inert: it must never change a line's
// structure (a fence, a block quote, an HTML opener, an alert marker). Every secret of the corpus is
// put next to each structure, on its line and on the lines around it, and every line that is
// structure must come out unchanged, with as many lines as went in.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/security/sanitize.js';

interface Positive {
  name: string;
  text: string;
  parts: string[];
}
const corpus = JSON.parse(
  readFileSync(new URL('../fixtures/hostile/secrets-corpus.json', import.meta.url), 'utf8'),
) as {
  positives: Positive[];
};
const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234abcdEFGH5678ijklMNOP\n-----END RSA PRIVATE KEY-----';
const SECRETS = [
  ...corpus.positives.map((p) => ({ name: p.name, text: p.text.replace('{secret}', p.parts.join('')) })),
  { name: 'assignment', text: 'token: x1234567abcdef' },
  { name: 'bearer', text: 'Authorization: Bearer abcDEF1234567890xyz' },
  { name: 'private key', text: PEM },
];
const STRUCTURES = [
  '```',
  '~~~',
  '~~~x1234567',
  '````text',
  '> quoted',
  '<img src=x onerror=1>',
  '> [!CAUTION]',
  '@org/team',
];

describe('redaction keeps the structure of every line', () => {
  for (const secret of SECRETS) {
    it(secret.name, () => {
      for (const s of STRUCTURES) {
        for (const text of [
          `${s}\n${secret.text}\n${s}`,
          `${secret.text}\n${s}`,
          `${s}\n${secret.text}`,
          `${secret.text} ${s}`,
          `${s} ${secret.text}`,
        ]) {
          const out = redactSecrets(text);
          const lines = text.split('\n');
          const outLines = out.split('\n');
          expect(outLines, `${JSON.stringify(text)} → ${JSON.stringify(out)}`).toHaveLength(lines.length);
          lines.forEach((line, i) => {
            if (line === s) expect(outLines[i], JSON.stringify(text)).toBe(s);
            else if (line.startsWith(`${s} `)) expect(outLines[i]!.startsWith(`${s} `), JSON.stringify(out)).toBe(true);
          });
        }
      }
    });
  }

  it('keeps a fence inside a cut-off private key block, and redacts the key lines', () => {
    const text =
      '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEF\n```\n@org/team <img src=x>\n```\n-----END PRIVATE KEY-----';
    const out = redactSecrets(text);
    expect(out.split('\n')).toEqual([
      '[REDACTED]',
      '[REDACTED]',
      '```',
      '@org/team <img src=x>',
      '```',
      '-----END PRIVATE KEY-----',
    ]);
  });

  it('still redacts a whole key block line by line', () => {
    expect(redactSecrets(`key:\n${PEM}\nafter`)).toBe('key:\n[REDACTED]\n[REDACTED]\n[REDACTED]\nafter');
  });
});
