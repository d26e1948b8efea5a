// The gate reviewer through the real `command` adapter and the e2e suite's scripted agent: it is
// given the fix as a patch of the fix commit against the PR head, and its decision becomes
// approved or the feedback the fixer gets next; a failed gate call never approves.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { runGate } from '../../src/fix/gate.js';
import { buildFixPayload } from '../../src/fix/payload.js';
import { finding } from '../factories.js';
import { createFixWorld, type FixWorld } from './fix-world.js';

const BUG = finding({ id: 'BUG-5bb51bb7' });
const GATE = { agent: 'command' as const, model: 'scripted-gate' };

let w: FixWorld;
beforeAll(async () => {
  w = await createFixWorld();
});
afterAll(() => w.close());
beforeEach(async () => {
  await w.reset();
  // The fixer's commit the gate judges.
  await writeFile(path.join(w.sandbox.workDir, 'src/math.js'), 'function add(a, b) {\n  return a + b;\n}\n');
  await w.git(['commit', '--quiet', '-am', 'fix']);
});

const call = (loop = 1) => ({ ctx: w.ctx(), round: 2, loop, payload: buildFixPayload(7, 2, [BUG]) });

it('approves when the gate approves, having been given the fix as a patch and the payload', async () => {
  await w.script([{ role: 'gate', answer: { decision: 'approve', summary: 'Correct and minimal.' } }]);
  const out = await runGate(w.env({ gate: GATE }), call());
  expect(out).toEqual({ approved: true, feedback: 'Correct and minimal.', model: 'command:scripted-gate' });
  const [gate] = w.calls();
  expect(gate).toMatchObject({ role: 'gate', name: 'gate', round: 2 });
  const patch = await readFile(path.join(gate!.contextDir, 'fix.patch'), 'utf8');
  expect(patch).toContain('-  return a - b;\n+  return a + b;');
  expect(await readFile(path.join(gate!.contextDir, 'fix-payload.json'), 'utf8')).toContain(BUG.id);
  expect(w.logs).toContain('gate (loop 1): approve');
});

it('requested changes become the feedback, one line each', async () => {
  await w.script([
    {
      role: 'gate',
      answer: {
        decision: 'request_changes',
        summary: 'Not yet.',
        requestedChanges: ['Keep the JSDoc.', 'Add a regression test.'],
      },
    },
  ]);
  const out = await runGate(w.env({ gate: GATE }), call(2));
  expect(out).toEqual({
    approved: false,
    feedback: '- Keep the JSDoc.\n- Add a regression test.',
    model: 'command:scripted-gate',
  });
  expect(path.basename(w.calls()[0]!.contextDir)).toBe('gate-2');
});

it('a gate that fails or answers nothing usable does not approve, and says why', async () => {
  await w.script([{ role: 'gate', answer: 'I think it is fine.' }]);
  const out = await runGate(w.env({ gate: GATE }), call());
  expect(out.approved).toBe(false);
  expect(out.feedback).toMatch(/^the gate reviewer failed: /);
});
