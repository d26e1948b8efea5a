import { it } from 'vitest';
import { createWorld } from './harness.js';
import { STUCK_RULES } from './scenarios.js';
it('timing', async () => {
  const w = await createWorld();
  const t0 = Date.now();
  let seen = 0; const lines: string[] = [];
  const iv = setInterval(() => {
    const reqs = w.github.requests; while (seen < reqs.length) { lines.push(`${Date.now() - t0} ${reqs[seen]!.method} ${reqs[seen]!.path}`); seen++; }
    const calls = w.agentCalls(); if (calls.length && !lines.some(l => l.includes('agent' + calls.length))) lines.push(`${Date.now() - t0} agent${calls.length} ${calls.at(-1)!.role}`);
  }, 5);
  await w.run({ rules: STUCK_RULES });
  clearInterval(iv);
  console.log(Date.now() - t0);
  console.log(lines.join('\n'));
  await w.close();
}, 60000);
