// Round-1 agreement read from a relay folder (scripts/eval/agreement.ts): requests and answers as
// the relay agent writes them, grouped by the action's own grouping, counted per case.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { roundOneAgreement } from '../../scripts/eval/agreement.js';

let relay: string;
beforeEach(async () => {
  relay = await mkdtemp(path.join(tmpdir(), 'relay-agreement-'));
});
afterEach(async () => {
  await rm(relay, { recursive: true, force: true });
});

const finding = (line: number, title: string) => ({
  priority: 'P0',
  category: 'correctness',
  file: 'index.js',
  line,
  title,
  description: `${title}.`,
});

/** One call: its request, and its answer unless `answer` is null. */
async function call(id: string, req: { name: string; round: string; cwd: string }, answer: unknown): Promise<void> {
  await writeFile(path.join(relay, `req-${id}-${req.name}.json`), JSON.stringify({ ...req, prompt: '…' }));
  if (answer === null) return;
  const text = typeof answer === 'string' ? answer : `BEGIN_JSON\n${JSON.stringify(answer)}\nEND_JSON\n`;
  await writeFile(path.join(relay, `res-${id}-${req.name}.txt`), text);
}

const review = (...findings: unknown[]) => ({ conclusion: 'needs_major_work', findings, fullReport: 'checked' });

it('counts, per case, the problems both reviewers reported in round 1', async () => {
  // Case a: both reviewers report the same bug at the same line.
  await call('1', { name: 'reviewer-1', round: '1', cwd: '/c/a' }, review(finding(9, 'Prefix check accepts siblings')));
  await call('2', { name: 'reviewer-2', round: '1', cwd: '/c/a' }, review(finding(9, 'Prefix check accepts siblings')));
  // Case b: one bug each, far apart and worded differently: two problems, none shared.
  await call('3', { name: 'reviewer-1', round: '1', cwd: '/c/b' }, review(finding(10, 'Zero max age dropped')));
  await call('4', { name: 'reviewer-2', round: '1', cwd: '/c/b' }, review(finding(80, 'Cache header never sent')));
  // Not counted: a later round, a call not answered, an answer the action would refuse.
  await call('5', { name: 'reviewer-1', round: '2', cwd: '/c/a' }, review(finding(30, 'Another problem entirely')));
  await call('6', { name: 'reviewer-2', round: '1', cwd: '/c/c' }, null);
  await call('7', { name: 'reviewer-1', round: '1', cwd: '/c/c' }, 'no envelope here');
  expect(roundOneAgreement(relay)).toEqual([
    { cwd: '/c/a', findings: { 'reviewer-1': 1, 'reviewer-2': 1 }, groups: 1, shared: 1 },
    { cwd: '/c/b', findings: { 'reviewer-1': 1, 'reviewer-2': 1 }, groups: 2, shared: 0 },
  ]);
});
