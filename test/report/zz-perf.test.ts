import { it } from 'vitest';
import { sanitize } from '../../src/report/sanitize.js';
it('perf', () => {
  const cases = { kebab: 'a-'.repeat(100_000), under: 'a_'.repeat(100_000), dots: 'a.'.repeat(100_000), word: 'x'.repeat(200_000), eyj: 'eyJaaaaa.'.repeat(20000), sk: 'sk-'.repeat(50000), auth: 'Authorization: '.repeat(10000), url: 'https://a:'.repeat(20000), pem: '-----BEGIN PRIVATE KEY-----\n'.repeat(5000), diff: 'diff --git a b\n\n'.repeat(20000), bearer: 'Bearer '.repeat(30000) };
  for (const [k, v] of Object.entries(cases)) { const t = Date.now(); sanitize(v); console.log(k, Date.now() - t, 'ms'); }
});
