// The redactor against a corpus of common secret formats (fake values, assembled
// at run time) and of look-alikes that must survive (git shas, digests, ids, ordinary code), and
// against 200 KB of near-matches for every rule, which must stay fast (no catastrophic backtracking).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets, sanitize } from '../../src/security/sanitize.js';

interface Corpus {
  positives: { name: string; text: string; parts: string[]; expected: string }[];
  negatives: string[];
}
/**
 * This process's CPU time in ms. The bounds below are for the redaction's own work: a wall clock
 * also counts the time other processes of a loaded machine held the CPU (one keyword's text took
 * 1.4 s by the clock with three test suites running at once), and a quadratic pattern shows in CPU
 * time as well.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const corpusFile = new URL('../fixtures/hostile/secrets-corpus.json', import.meta.url);
const corpus: Corpus = JSON.parse(readFileSync(corpusFile, 'utf8'));
const rules: { rules: { id: string; keywords?: string[] }[] } = JSON.parse(
  readFileSync(new URL('../../src/security/secret-rules.json', import.meta.url), 'utf8'),
);

describe('redacts common secret formats', () => {
  it.each(corpus.positives.map((p) => [p.name, p] as const))('%s', (_name, p) => {
    const secret = p.parts.join('');
    const out = sanitize(p.text.replace('{secret}', secret));
    expect(out).toBe(p.expected);
    expect(out).not.toContain(secret);
    expect(sanitize(out)).toBe(out);
  });
});

describe('keeps look-alikes', () => {
  it.each(corpus.negatives)('%j', (text) => {
    expect(sanitize(text)).toBe(text);
  });
});

describe('no catastrophic backtracking', () => {
  const SIZE = 200_000;
  const keywords = [...new Set(rules.rules.flatMap((r) => r.keywords ?? []))];
  // Near-misses: the keyword, then runs of token characters that fail at the end, over and over.
  const nearMisses = (k: string): string => {
    const tails = [`${'a'.repeat(9)} `, `${'Ab1-'.repeat(30)}.`, k.repeat(19), `${'_'.repeat(80)}~`];
    tails.push(`=${'x9'.repeat(40)}\n`);
    const unit = tails.map((t) => k + t).join('');
    return unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
  };

  it('redacts 200 KB of near-matches for every rule keyword quickly', () => {
    expect(keywords.length).toBeGreaterThan(50);
    const slow: string[] = [];
    for (const k of keywords) {
      const started = cpuMs();
      sanitize(nearMisses(k), { maxChars: Number.MAX_SAFE_INTEGER });
      const ms = cpuMs() - started;
      if (ms > 1_000) slow.push(`${k}: ${Math.round(ms)} ms`);
    }
    expect(slow).toEqual([]);
  });

  it('redacts a JWT and a key block after 200 KB runs that once made their rules quadratic', () => {
    // `-eyJ` over and over (each was a JWT's start, read to the run's end), and PRIVATE KEY over and
    // over in one BEGIN line. Checked by result: a blocked event loop fires no timeout.
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    const dashes = '-eyJ'.repeat(SIZE / 4);
    expect(sanitize(`${dashes} ${jwt}`, { maxChars: Number.MAX_SAFE_INTEGER })).toBe(`${dashes} ${REDACTED}`);
    const labels = `-----BEGIN ${'PRIVATE KEYB'.repeat(SIZE / 12)}`;
    const key = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234abcdEFGH5678\n-----END RSA PRIVATE KEY-----';
    const out = sanitize(`${labels}\n\n${key}`, { maxChars: Number.MAX_SAFE_INTEGER });
    expect(out).toBe(`${labels}\n\n${REDACTED}\n${REDACTED}\n${REDACTED}`);
  });

  it('redacts a key block after 280 KB of BEGIN lines, and one whose body is 20,000 characters at most', () => {
    // The closed block's rule once tried an END line at each of up to 20,000 characters after every
    // BEGIN line: 0.45 s for 256 KiB, 15 s for the 8 MiB a verify command may print. Checked by result.
    const begin = '-----BEGIN PRIVATE KEY-----';
    const end = '-----END PRIVATE KEY-----';
    const key = `${begin}\nMIIEvQIBADANBgkqhkiG9w0BAQEF\n${end}`;
    const redacted = (lines: number) => Array<string>(lines).fill(REDACTED).join('\n');
    // The BEGIN lines end at the quote (no key holds one): they are a block cut off before its END line.
    expect(redactSecrets(`${begin}\n`.repeat(10_000) + `"\n${key}`)).toBe(`${redacted(10_000)}\n"\n${redacted(3)}`);
    // A blank line ends a block without its END line, not one with it.
    const block = (body: number) => `${begin}\n\n${'A'.repeat(body - 2)}${end}`;
    expect(redactSecrets(block(20_000))).toBe(`${REDACTED}\n\n${REDACTED}`);
    expect(redactSecrets(block(20_001))).toBe(`${REDACTED}\n\n${'A'.repeat(19_999)}${end}`);
  });

  it('redacts 200 KB of real secrets quickly and completely', () => {
    const unit = corpus.positives.map((p) => p.text.replace('{secret}', p.parts.join(''))).join('\n');
    const text = unit.repeat(Math.ceil(SIZE / unit.length));
    const started = cpuMs();
    const out = sanitize(text, { maxChars: Number.MAX_SAFE_INTEGER });
    expect(cpuMs() - started).toBeLessThan(3_000);
    for (const p of corpus.positives) expect(out).not.toContain(p.parts.join(''));
    expect(out).toContain(REDACTED);
  });
});
